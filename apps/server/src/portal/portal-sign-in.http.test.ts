import { expect, it, vi } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import { WebClient, csrfOf } from '../testing/dashboard-client.js';
import { portalServers } from './portal-http-fixture.js';

vi.setConfig({ testTimeout: 40_000 });

describeEachStorage('learner portal over HTTP: sign-in by emailed link', (_get, kind) => {
  const t = portalServers(kind, 'psi');

  it('signs in with the emailed link once: its own cookie on /learn, HttpOnly, SameSite=Lax', async () => {
    const w = await t.world();
    const l = await t.learner(w, 1, { email: `thandi${w.n}@example.org` });
    const { web, res } = await t.ask(w.slug, l.email!.toUpperCase());
    expect(res.status).toBe(200);
    expect(res.text).toContain('If that address belongs to a learner');
    const link = await t.linkTo(l.email!);
    const opened = await t.openLink(web, link);
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe('/learn');
    const cookie = opened.setCookies.find((c) => c.startsWith('fundi_learner='))!;
    expect(cookie).toMatch(/; Path=\/learn; HttpOnly; SameSite=Lax/);
    const home = await web.get('/learn');
    expect(home.status).toBe(200);
    expect(home.text).toContain('My programmes');
    expect(home.headers.get('content-security-policy')).toContain("default-src 'none'");

    // The same link again, from another device: refused, and nothing opened.
    const again = await t.openLink(new WebClient(t.s.url), link);
    expect(again.status).toBe(401);
    expect(again.setCookies.some((c) => c.startsWith('fundi_learner=') && !c.includes('Max-Age=0'))).toBe(false);
  });

  it("links learner messages into the portal, and lands on the page asked for after sign-in, only the portal's", async () => {
    const w = await t.world();
    const l = await t.learner(w, 1, { email: `next${w.n}@example.org` });
    // The welcome mail links to the learner's page, naming the organisation.
    const welcome = await t.until('the welcome mail', async () =>
      (await t.allMailsTo(l.email!)).find((m) => m.subject.startsWith('Welcome')),
    );
    expect(welcome.text).toContain(`See your programmes: https://fundi.example/learn?tenant=${w.slug}`);

    // A page asked for without a session: the sign-in page of the organisation, then that page.
    const web = new WebClient(t.s.url);
    const asked = await web.get(`/learn/statements?tenant=${w.slug}`);
    expect(asked.status).toBe(302);
    const signIn = asked.headers.get('location')!;
    expect(signIn).toBe(
      `/learn/sign-in?tenant=${w.slug}&next=${encodeURIComponent(`/learn/statements?tenant=${w.slug}`)}`,
    );
    const form = await web.get(signIn);
    expect(form.status).toBe(200);
    await web.post('/learn/sign-in', { _csrf: csrfOf(form.text), tenant: w.slug, address: l.email! });
    const opened = await t.openLink(web, await t.linkTo(l.email!));
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe(`/learn/statements?tenant=${w.slug}`);
    expect((await web.get(opened.headers.get('location')!)).status).toBe(200);

    // Anywhere else is not a place to land: another site, a scheme-relative or escaping path, a sign-in step.
    const unsafe = [
      'https://evil.example/learn',
      '//evil.example/learn',
      '/learn/../dashboard',
      '/learn/%2e%2e/dashboard',
      '/learn\\evil',
      '/dashboard',
      '/learn/link?token=x',
      'javascript:alert(1)',
    ];
    for (const [i, next] of unsafe.entries()) {
      t.clock.advance(16 * 60_000); // past the window of three messages per address
      const other = new WebClient(t.s.url);
      const page = await other.get(`/learn/sign-in?tenant=${w.slug}&next=${encodeURIComponent(next)}`);
      expect(page.status).toBe(200);
      await other.post('/learn/sign-in', { _csrf: csrfOf(page.text), tenant: w.slug, address: l.email! });
      const res = await t.openLink(other, await t.linkTo(l.email!, i + 2));
      expect([next, res.headers.get('location')]).toEqual([next, '/learn']);
    }
  });

  it('refuses an altered link, an expired link, and a link after the learner opted out of email', async () => {
    const w = await t.world();
    const l = await t.learner(w, 1, { email: `sipho${w.n}@example.org` });
    await t.ask(w.slug, l.email!);
    const link = await t.linkTo(l.email!);
    const altered = link.replace(/token=(.)/, (_m, c: string) => `token=${c === 'A' ? 'B' : 'A'}`);
    expect((await t.openLink(new WebClient(t.s.url), altered)).status).toBe(401);

    t.clock.advance(16 * 60_000);
    expect((await t.openLink(new WebClient(t.s.url), link)).status).toBe(401);

    await t.ask(w.slug, l.email!);
    const fresh = await t.linkTo(l.email!, 2);
    const out = await t.s.call('PATCH', `/api/v1/learners/${l.id}`, w.key, { emailOptOut: true });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect((await t.openLink(new WebClient(t.s.url), fresh)).status).toBe(401);
  });

  it('answers alike for unknown, opted-out, erased and contactless learners, and sends them nothing', async () => {
    const w = await t.world();
    const optedOut = await t.learner(w, 1, { email: `out${w.n}@example.org`, emailOptOut: true });
    const erased = await t.learner(w, 2, { email: `gone${w.n}@example.org` });
    expect((await t.s.call('DELETE', `/api/v1/learners/${erased.id}`, w.key)).status).toBe(204);
    const known = await t.learner(w, 3, { email: `known${w.n}@example.org` });
    const answers: string[] = [];
    for (const a of [`nobody${w.n}@example.org`, optedOut.email!, `gone${w.n}@example.org`, 'not an address']) {
      const { res } = await t.ask(w.slug, a);
      expect(res.status).toBe(200);
      answers.push(res.text.replace(/name="_csrf" value="[^"]+"/, ''));
    }
    expect(new Set(answers).size).toBe(1);
    const { res } = await t.ask(w.slug, known.email!);
    expect(res.text.replace(/name="_csrf" value="[^"]+"/, '')).toBe(answers[0]);
    await t.linkTo(known.email!);
    expect(await t.signInsOf(w.key, known.id)).toHaveLength(1);
    expect(await t.signInsOf(w.key, optedOut.id)).toEqual([]);
    expect(await t.mailsTo(optedOut.email!)).toEqual([]);
    expect(await t.mailsTo(`gone${w.n}@example.org`)).toEqual([]);
  });

  it('throttles: ten requests for one address in a minute send at most three messages', async () => {
    const w = await t.world();
    const l = await t.learner(w, 1, { email: `busy${w.n}@example.org` });
    for (let i = 0; i < 10; i++) {
      const { res } = await t.ask(w.slug, i % 2 ? l.email! : ` ${l.email!.toUpperCase()} `);
      expect(res.status).toBe(200);
    }
    await t.linkTo(l.email!, 3);
    expect(await t.signInsOf(w.key, l.id)).toHaveLength(3);
    await new Promise((r) => setTimeout(r, 500));
    expect(await t.mailsTo(l.email!)).toHaveLength(3);
  });

  it('keeps the portal and the dashboard apart: neither session opens the other, nor the API', async () => {
    const w = await t.world();
    const l = await t.learner(w, 1, { email: `apart${w.n}@example.org` });
    const { web } = await t.ask(w.slug, l.email!);
    expect((await t.openLink(web, await t.linkTo(l.email!))).status).toBe(303);
    const portalCookie = web.cookies.get('fundi_learner')!;
    // The portal's cookie, sent to the dashboard, even under the dashboard's own cookie name: signed out there.
    for (const name of ['fundi_learner', 'fundi_session']) {
      const dash = await fetch(`${t.s.url}/dashboard`, {
        redirect: 'manual',
        headers: { cookie: `${name}=${portalCookie}` },
      });
      expect(dash.status).toBe(302);
      expect(dash.headers.get('location')).toMatch(/^\/dashboard\/sign-in/);
    }
    const api = await t.s.call('GET', '/api/v1/learners', undefined, undefined, {
      cookie: `fundi_learner=${portalCookie}`,
    });
    expect(api.status).toBe(401);
    const asBearer = await t.s.call('GET', '/api/v1/learners', portalCookie);
    expect(asBearer.status).toBe(401);
    // Sign-out without the session's form token is refused and keeps the session.
    expect((await web.post('/learn/sign-out', { _csrf: 'forged' })).status).toBe(403);
    expect((await web.get('/learn')).status).toBe(200);
    const home = await web.get('/learn');
    expect((await web.post('/learn/sign-out', { _csrf: csrfOf(home.text) })).status).toBe(200);
    expect((await web.get('/learn')).status).toBe(302);
  });
});
