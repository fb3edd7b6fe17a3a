import { beforeAll, expect, it, vi } from 'vitest';
import { useCasesOf } from '@fundi/adapters';
import { describeEachStorage, type TestSmtpServer } from '@fundi/adapters/testing';
import { FORMS } from '../testing/http-forms.js';
import type { TestServer } from '../testing/test-server.js';
import { notificationServers } from './testing/notification-servers.js';
import { staff, tenants } from '../capabilities/index.js';
import { WebClient, csrfOf, staffUser } from '../testing/dashboard-client.js';

vi.setConfig({ testTimeout: 30_000 });

/** The security mails: the admins' alert about refused API keys, and the dashboard's password reset. */
describeEachStorage('notifications over HTTP: security', (_get, kind) => {
  const h = notificationServers(kind, 'nts');
  let s: TestServer;
  let smtp: TestSmtpServer;
  let n = 0;
  beforeAll(() => {
    ({ s, smtp } = h.servers());
  });
  const world = async (form: (typeof FORMS)[number]) => {
    const w = await h.world(form);
    n = w.n;
    return w;
  };
  const { until } = h;

  // One alert per address and 10 minutes: the three forms share this server's address, so one form tells it.
  it('twenty refused keys from one address alert the admins once', async () => {
    const form = FORMS[0]!;
    const w = await world(form);
    const admin = await useCasesOf(s.container, staff).createStaffUser.execute(w.slug, {
      email: `guard.${kind}.${n}@example.org`,
      name: 'Zanele Guard',
      role: 'admin',
    });
    const old = await s.key(w.slug, 'viewer');
    await useCasesOf(s.container, tenants).revokeApiKey.execute(w.slug, old.id);
    for (let i = 0; i < 25; i++) expect((await s.call('GET', `${w.prefix}/learners`, old.key)).status).toBe(401);
    const alert = await until('the refused-keys alert', async () =>
      (await smtp.received()).find((m) => m.to.includes(admin.user.email) && m.text.includes('refused API key')),
    );
    expect(alert.text).toContain('20 requests with a refused API key');
    expect(alert.text).toContain('viewer key');
    // It links to the dashboard's API keys page, which exists.
    expect(alert.text).toContain('https://fundi.example/dashboard/api-keys');
    expect(alert.text).not.toContain('/dashboard/keys');
    await new Promise((r) => setTimeout(r, 200));
    const alerts = (await smtp.received()).filter(
      (m) => m.to.includes(admin.user.email) && m.text.includes('refused API key'),
    );
    expect(alerts).toHaveLength(1);
  });

  // The dashboard has one form: the test runs once per storage.
  it('forgot password: a reset link by email that sets a new password; unknown accounts get the same answer', async () => {
    const form = FORMS[0]!;
    const w = await world(form);
    const email = `reset.${kind}.${n}@example.org`;
    await staffUser(s.container, w.slug, 'manager', email);
    const web = new WebClient(s.url);
    const page = await web.get(`/dashboard/forgot-password?tenant=${w.slug}`);
    expect(page.status).toBe(200);
    const asked = await web.post('/dashboard/forgot-password', { _csrf: csrfOf(page.text), tenant: w.slug, email });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('If that account exists');
    const again = await web.get(`/dashboard/forgot-password?tenant=${w.slug}`);
    const nobody = await web.post('/dashboard/forgot-password', {
      _csrf: csrfOf(again.text),
      tenant: w.slug,
      email: `nobody.${n}@example.org`,
    });
    expect(nobody.text).toContain('If that account exists');
    const mail = await until('the reset mail', async () =>
      (await smtp.received()).find((m) => m.to.includes(email) && m.subject.startsWith('Choose a new password')),
    );
    const link = /https:\/\/fundi\.example(\/dashboard\/set-password\?token=[^\s"<]+)/.exec(mail.text);
    expect(link).not.toBeNull();
    const form2 = await web.get(link![1]!);
    expect(form2.status).toBe(200);
    const set = await web.post('/dashboard/set-password', {
      _csrf: csrfOf(form2.text),
      token: decodeURIComponent(link![1]!.split('token=')[1]!),
      password: 'a brand new passphrase 42',
    });
    expect(set.status).toBeLessThan(400);
    const signedIn = await new WebClient(s.url).signIn(w.slug, email, 'a brand new passphrase 42');
    expect(signedIn.status).toBe(303);
    expect((await smtp.received()).filter((m) => m.to.includes(`nobody.${n}@example.org`))).toEqual([]);
  });
});
