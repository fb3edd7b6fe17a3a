import { afterAll, beforeAll, expect } from 'vitest';
import {
  startCloudApi,
  startSmtpServer,
  type StorageKind,
  type TestCloudApi,
  type TestSmtpServer,
} from '@fundi/adapters/testing';
import { idNumberFor } from '@fundi/domain/testing';
import { FixedClock } from '@fundi/testing';
import type { PortalLimits } from '@fundi/http/portal';
import { WebClient, csrfOf } from '../testing/dashboard-client.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

export const PUBLIC_URL = 'https://fundi.example';

/**
 * The servers the portal tests run against: the test server with its worker (which sends the sign-in messages), a
 * loopback SMTP server it mails to, and a local server that answers like the WhatsApp Cloud API.
 */
export function portalServers(kind: StorageKind, tag: string, limits: Partial<PortalLimits> = { perClient: 10_000 }) {
  const clock = new FixedClock(new Date('2026-06-01T08:00:00.000Z'));
  const h = {} as { s: TestServer; smtp: TestSmtpServer; cloud: TestCloudApi };
  let n = 0;

  beforeAll(async () => {
    h.smtp = await startSmtpServer();
    h.cloud = await startCloudApi();
    h.s = await startTestServer(kind, {
      clock,
      worker: {},
      portalLimits: limits,
      notifications: {
        publicUrl: PUBLIC_URL,
        channels: {
          smtpUrl: h.smtp.url,
          smtpFrom: 'Fundi <no-reply@fundi.example>',
          smtpOptions: { ignoreTLS: true, timeoutMs: 5000 },
        },
      },
    });
  });
  afterAll(async () => {
    await h.s?.close();
    await h.smtp?.close();
    await h.cloud?.close();
  });

  /** Polls `f` every 25 ms for up to 18 s of wall time (a loaded machine runs the worker slowly). */
  async function until<T>(what: string, f: () => Promise<T | null | undefined | false>): Promise<T> {
    const deadline = Date.now() + 18_000;
    for (;;) {
      const v = await f();
      if (v) return v;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** The sign-in mails to `address` (learners also get a welcome mail when registered). */
  const mailsTo = async (address: string) =>
    (await h.smtp.received()).filter((m) => m.to.includes(address) && m.subject.startsWith('Sign in to'));

  /** The portal sign-in notifications of a tenant's learner, through the API. */
  const signInsOf = async (key: string, learnerId: string) => {
    const r = await h.s.call('GET', `/api/v1/notifications?recipientId=${learnerId}`, key);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return (r.body.data as { template: string }[]).filter((x) => x.template === 'portal_sign_in');
  };

  return {
    clock,
    signInsOf,
    /** Every mail to `address`, oldest first. */
    allMailsTo: async (address: string) => (await h.smtp.received()).filter((m) => m.to.includes(address)),
    until,
    mailsTo,
    get s() {
      return h.s;
    },
    get cloud() {
      return h.cloud;
    },
    /** A new tenant with its admin key; `n` numbers it within the suite. */
    async world() {
      const slug = `${tag}-${kind}-${++n}`;
      const t = await h.s.tenant(slug);
      return { slug, key: t.key, tenantId: t.id, n };
    },
    /** A learner of the tenant (through the API), with what the test gives. */
    async learner(w: { key: string; n: number }, i: number, extra: Record<string, unknown>) {
      const r = await h.s.call('POST', '/api/v1/learners', w.key, {
        firstName: `Lerato${i}`,
        lastName: 'Mokoena',
        idNumber: idNumberFor(30_000 + w.n * 100 + i),
        ...extra,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body as { id: string; email: string | null; mobile: string | null };
    },
    /** Asks for a sign-in for `address` from a new browser-like client; the client and the answer. */
    async ask(slug: string, address: string, web = new WebClient(h.s.url)) {
      const form = await web.get(`/learn/sign-in?tenant=${slug}`);
      const res = await web.post('/learn/sign-in', { _csrf: csrfOf(form.text), tenant: slug, address });
      return { web, res };
    },
    /** The sign-in link of the latest mail to `address`, as a path of this server. */
    async linkTo(address: string, count = 1) {
      const mails = await until(`${count} mail(s) to ${address}`, async () => {
        const m = await mailsTo(address);
        return m.length >= count ? m : null;
      });
      const m = /https:\/\/fundi\.example(\/learn\/link\?token=[\w%-]+)/.exec(mails.at(-1)!.text);
      expect(m, mails.at(-1)!.text).not.toBeNull();
      return m![1]!;
    },
    /** A learner with an email, signed in to the portal through the emailed link; their web client and id. */
    async signedIn(w: { slug: string; key: string; n: number }, i: number, extra: Record<string, unknown> = {}) {
      const email = `l${i}-${w.slug}@example.org`;
      const l = await this.learner(w, i, { email, ...extra });
      const { web } = await this.ask(w.slug, email);
      const path = await this.linkTo(email);
      const page = await web.get(path);
      const token = decodeURIComponent(/token=([^&]+)/.exec(path)![1]!);
      const opened = await web.post('/learn/link', { _csrf: csrfOf(page.text), token });
      expect(opened.status).toBe(303);
      return { web, id: l.id };
    },
    /** Opens a link path in `web` and presses its button; the answer. */
    async openLink(web: WebClient, path: string) {
      const page = await web.get(path);
      expect(page.status).toBe(200);
      const token = decodeURIComponent(/token=([^&]+)/.exec(path)![1]!);
      return web.post('/learn/link', { _csrf: csrfOf(page.text), token });
    },
  };
}
