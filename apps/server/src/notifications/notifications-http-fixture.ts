import { beforeAll } from 'vitest';
import type { StorageKind, TestCloudApi, TestSmtpServer } from '@fundi/adapters/testing';
import type { FormUnderTest } from '../testing/http-forms.js';
import type { TestServer } from '../testing/test-server.js';
import { notificationServers } from './testing/notification-servers.js';

/** The WhatsApp app secret the notification HTTP tests configure and sign callbacks with. */
export const APP_SECRET = 'test-app-secret-123';

/**
 * What the notifications-over-HTTP test files share: the servers for one storage kind (started before the suite),
 * a new tenant per test through `world`, and `n`, the number of the latest tenant. `tag` keeps each file's tenant
 * slugs apart.
 */
export function notificationsHttp(kind: StorageKind, tag: string) {
  const h = notificationServers(kind, tag);
  let s: TestServer;
  let smtp: TestSmtpServer;
  let cloud: TestCloudApi;
  let n = 0;
  beforeAll(() => {
    ({ s, smtp, cloud } = h.servers());
  });
  return {
    clock: h.clock,
    until: h.until,
    mailTo: h.mailTo,
    notificationsOf: h.notificationsOf,
    async world(form: FormUnderTest) {
      const w = await h.world(form);
      n = w.n;
      return w;
    },
    get s() {
      return s;
    },
    get smtp() {
      return smtp;
    },
    get cloud() {
      return cloud;
    },
    get n() {
      return n;
    },
  };
}
