import { afterAll, beforeAll, expect } from 'vitest';
import {
  startCloudApi,
  startSmtpServer,
  type StorageKind,
  type TestCloudApi,
  type TestSmtpServer,
} from '@fundi/adapters/testing';
import { FixedClock } from '@fundi/testing';
import type { FormUnderTest } from '../../testing/http-forms.js';
import { startTestServer, type TestServer } from '../../testing/test-server.js';

export type NotificationBody = Record<string, unknown> & {
  id: string;
  status: string;
  history: { status: string; detail: string }[];
};

/**
 * The servers the notification tests run against, started for the suite and stopped after it: the test server with
 * its worker, a loopback SMTP server it mails to, and a local server that answers like the WhatsApp Cloud API.
 */
export function notificationServers(kind: StorageKind, tag: string) {
  const clock = new FixedClock(new Date('2026-06-01T08:00:00.000Z'));
  let s: TestServer;
  let smtp: TestSmtpServer;
  let cloud: TestCloudApi;
  let n = 0;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    cloud = await startCloudApi();
    s = await startTestServer(kind, {
      clock,
      worker: {},
      notifications: {
        publicUrl: 'https://fundi.example',
        channels: {
          smtpUrl: smtp.url,
          smtpFrom: 'Fundi <no-reply@fundi.example>',
          smtpOptions: { ignoreTLS: true, timeoutMs: 5000 },
        },
      },
    });
  });
  afterAll(async () => {
    await s?.close();
    await smtp?.close();
    await cloud?.close();
  });

  const prefixOf = (form: FormUnderTest, slug: string) => form.learners(slug).replace(/\/learners$/, '');

  /** Polls `f` every 25 ms for up to 45 s of wall time, within the test timeout (a loaded CI machine runs the worker's retries slowly). */
  async function until<T>(what: string, f: () => Promise<T | null | undefined | false>): Promise<T> {
    const deadline = Date.now() + 45_000;
    for (;;) {
      const v = await f();
      if (v) return v;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  return {
    clock,
    servers: () => ({ s, smtp, cloud }),
    /** A new tenant with its admin key and the form's path prefix; `n` numbers it within the suite. */
    async world(form: FormUnderTest) {
      const slug = `${tag}-${kind}-${++n}`;
      const t = await s.tenant(slug);
      return { slug, key: t.key, tenantId: t.id, prefix: prefixOf(form, slug), n };
    },
    until,
    mailTo: (address: string) =>
      until(`mail to ${address}`, async () => (await smtp.received()).filter((m) => m.to.includes(address)).at(-1)),
    async notificationsOf(w: { prefix: string; key: string }, recipientId: string): Promise<NotificationBody[]> {
      const r = await s.call('GET', `${w.prefix}/notifications?recipientId=${recipientId}`, w.key);
      expect(r.status).toBe(200);
      return r.body.data as NotificationBody[];
    },
  };
}
