import { expect, it, vi } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import { WebClient, csrfOf } from '../testing/dashboard-client.js';
import { portalServers } from './portal-http-fixture.js';

vi.setConfig({ testTimeout: 40_000 });

describeEachStorage('learner portal over HTTP: sign-in by WhatsApp code', (_get, kind) => {
  const t = portalServers(kind, 'pco');

  /** A tenant whose WhatsApp messages go to the local Cloud API, and a learner with a mobile number. */
  async function withWhatsApp(consent: boolean) {
    const w = await t.world();
    const put = await t.s.call('PUT', '/api/v1/notification-settings', w.key, {
      whatsapp: {
        phoneNumberId: `${200000 + w.n}`,
        accessToken: 'EAAG-test-token-123',
        appSecret: 'test-app-secret-123',
        baseUrl: t.cloud.baseUrl,
        verifyToken: 'verify-me-please',
      },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const mobile = `083 555 ${String(1000 + w.n).slice(-4)}`;
    const l = await t.learner(w, 1, { mobile, whatsappConsent: consent });
    return { w, l, mobile };
  }

  const codeSentTo = (e164: string) =>
    t.until(`the code to ${e164}`, async () => {
      const r = t.cloud.requests.find((x) => x.body.to === e164 && x.body.template?.name === 'portal_code');
      if (!r) return undefined;
      return r.body.template.components[0]!.parameters.map((p: { text: string }) => p.text) as string[];
    });

  async function tryCode(web: WebClient, page: string, slug: string, address: string, code: string) {
    return web.post('/learn/code', { _csrf: csrfOf(page), tenant: slug, address, code });
  }

  it('sends a six-digit code that signs in once; a wrong code is refused', async () => {
    const { w, l, mobile } = await withWhatsApp(true);
    const { web, res } = await t.ask(w.slug, mobile);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Six-digit code');
    const [name, code] = await codeSentTo(l.mobile!);
    expect(name).toBe('Lerato1');
    expect(code).toMatch(/^\d{6}$/);
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await tryCode(web, res.text, w.slug, mobile, wrong)).status).toBe(401);
    const ok = await tryCode(web, res.text, w.slug, mobile, code!);
    expect(ok.status).toBe(303);
    expect(ok.setCookies.some((c) => c.startsWith('fundi_learner=') && c.includes('Path=/learn'))).toBe(true);
    expect((await web.get('/learn')).status).toBe(200);
    // Used once: the same code from another device is refused.
    const other = new WebClient(t.s.url);
    const again = await t.ask(w.slug, 'nobody@example.org', other);
    expect((await tryCode(other, again.res.text, w.slug, mobile, code!)).status).toBe(401);
  });

  it('sends nothing to a learner without WhatsApp consent, and says the same', async () => {
    const { w, l, mobile } = await withWhatsApp(false);
    const { res } = await t.ask(w.slug, mobile);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Six-digit code');
    const unknown = await t.ask(w.slug, '0845550999');
    const strip = (s: string) => s.replace(/value="[^"]+"/g, '');
    expect(strip(unknown.res.text)).toBe(strip(res.text));
    await new Promise((r) => setTimeout(r, 300));
    expect(t.cloud.requests.some((x) => x.body.to === l.mobile)).toBe(false);
  });

  it('sends at most three messages per learner in a window, whichever of their addresses is typed', async () => {
    const w = await t.world();
    const put = await t.s.call('PUT', '/api/v1/notification-settings', w.key, {
      whatsapp: {
        phoneNumberId: `${200000 + w.n}`,
        accessToken: 'EAAG-test-token-123',
        appSecret: 'test-app-secret-123',
        baseUrl: t.cloud.baseUrl,
        verifyToken: 'verify-me-please',
      },
    });
    expect(put.status).toBe(200);
    const mobile = `083 555 ${String(1000 + w.n).slice(-4)}`;
    const email = `both${w.n}@example.org`;
    const l = await t.learner(w, 1, { mobile, email, whatsappConsent: true });
    // Two addresses, each within its own limit of three: the learner's limit is what stops the fourth message.
    for (const address of [email, mobile, email, mobile, email, mobile]) {
      const { res } = await t.ask(w.slug, address);
      expect(res.status).toBe(200);
    }
    const sent = async () => {
      const r = await t.s.call('GET', `/api/v1/notifications?recipientId=${l.id}`, w.key);
      return (r.body.data as { template: string }[])
        .map((x) => x.template)
        .filter((x) => x.startsWith('portal_'))
        .sort();
    };
    await t.until('three sign-in notifications', async () => (await sent()).length >= 3);
    await new Promise((r) => setTimeout(r, 500));
    expect(await sent()).toEqual(['portal_code', 'portal_sign_in', 'portal_sign_in']);
    const mails = (await t.mailsTo(email)).length;
    const codes = t.cloud.requests.filter((x) => x.body.to === l.mobile && x.body.template?.name === 'portal_code');
    expect([mails, codes.length]).toEqual([2, 1]);
  });

  it('takes at most five codes per number in a window, even the right one after that', async () => {
    const { w, l, mobile } = await withWhatsApp(true);
    const { web, res } = await t.ask(w.slug, mobile);
    const [, code] = await codeSentTo(l.mobile!);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect((await tryCode(web, res.text, w.slug, mobile, wrong)).status).toBe(401);
    expect((await tryCode(web, res.text, w.slug, mobile, code!)).status).toBe(429);
  });
});
