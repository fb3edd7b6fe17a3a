import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it, vi } from 'vitest';
import { useCasesOf } from '@fundi/adapters';
import { staff } from '../capabilities/index.js';
import { httpApp } from '../compose.js';
import { PASSWORD, WebClient, csrfOf, staffUser } from '../testing/dashboard-client.js';
import { awayFromWindowEnd, describeDashboardSuite } from './dashboard-http-fixture.js';

// Two tests wait for the sign-in rate window to turn before they start (`awayFromWindowEnd`), then sign in many times.
vi.setConfig({ testTimeout: 60_000 });

describeDashboardSuite('dashboard over HTTP: sign-in, sessions, form tokens', (world) => {
  it('signs in with a session cookie that is HttpOnly, SameSite=Lax, scoped to /dashboard, not Secure over http', async () => {
    const { s } = world();
    const web = new WebClient(s.url);
    const form = await web.get('/dashboard/sign-in?tenant=web');
    expect(form.status).toBe(200);
    expect(form.text).toContain('value="web"');
    const res = await web.post('/dashboard/sign-in', {
      _csrf: csrfOf(form.text),
      tenant: 'web',
      email: 'ADMIN@example.org',
      password: PASSWORD,
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/dashboard');
    const cookie = res.setCookies.find((c) => c.startsWith('fundi_session='))!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\/dashboard/);
    expect(cookie).not.toMatch(/Secure/);
    const overview = await web.get('/dashboard');
    expect(overview.status).toBe(200);
    expect(overview.text).toContain('Signed in as The admin (admin)');
  });

  it('marks the cookie Secure behind an https proxy', async () => {
    const { s } = world();
    const app = httpApp(s.container, {
      authCacheMs: 0,
      anonymousLimits: { perMinute: 1000, perDay: null },
      trustProxy: true,
    });
    const server: Server = app.listen(0, '127.0.0.1');
    await new Promise((ok) => server.once('listening', ok));
    try {
      const web = new WebClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, {
        'x-forwarded-proto': 'https',
      });
      const res = await web.signIn('web', 'admin@example.org', PASSWORD);
      expect(res.status).toBe(303);
      expect(res.setCookies.find((c) => c.startsWith('fundi_session='))).toMatch(/; Secure/);
    } finally {
      server.close();
    }
  });

  it('sends a strict CSP, X-Frame-Options DENY and a Referrer-Policy on every page', async () => {
    const { s } = world();
    const res = await new WebClient(s.url).get('/dashboard/sign-in');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
  });

  it('refuses a wrong password, an unknown user and another tenant alike (401), and sends signed-out visitors to sign in', async () => {
    const { s } = world();
    const web = new WebClient(s.url);
    for (const [tenant, email, password] of [
      ['web', 'admin@example.org', 'wrong password!!'],
      ['web', 'nobody@example.org', PASSWORD],
      ['web-other', 'viewer@example.org', PASSWORD],
    ]) {
      const res = await web.signIn(tenant!, email!, password!);
      expect(res.status).toBe(401);
      expect(res.text).toContain('The organisation, email or password is not correct');
      expect(web.cookies.has('fundi_session')).toBe(false);
    }
    const page = await web.get('/dashboard/learners?q=Nkosi');
    expect(page.status).toBe(302);
    const location = page.headers.get('location')!;
    expect(location).toBe('/dashboard/sign-in?next=%2Fdashboard%2Flearners%3Fq%3DNkosi');
    const form = await web.get(location);
    const back = await web.post('/dashboard/sign-in', {
      _csrf: csrfOf(form.text),
      next: '/dashboard/learners?q=Nkosi',
      tenant: 'web',
      email: 'viewer@example.org',
      password: PASSWORD,
    });
    expect(back.headers.get('location')).toBe('/dashboard/learners?q=Nkosi');
    const elsewhere = new WebClient(s.url);
    const form2 = await elsewhere.get('/dashboard/sign-in');
    const away = await elsewhere.post('/dashboard/sign-in', {
      _csrf: csrfOf(form2.text),
      next: '//evil.example/dashboard',
      tenant: 'web',
      email: 'viewer@example.org',
      password: PASSWORD,
    });
    expect(away.headers.get('location')).toBe('/dashboard');
  });

  it('after sign-in goes only to a dashboard page: `next` is normalised as a browser would read it', async () => {
    const { s } = world();
    await awayFromWindowEnd();
    await staffUser(s.container, 'web', 'viewer', 'next@example.org');
    for (const [next, location] of [
      ['/dashboard/../..//evil.example', '/dashboard'],
      ['/dashboard/%2e%2e/%2E%2e//evil.example/x', '/dashboard'],
      ['/dashboard/..\\..\\evil.example', '/dashboard'],
      ['/\t/evil.example/dashboard', '/dashboard'],
      ['/dashboard/../api/v1/learners', '/dashboard'],
      ['/dashboardevil', '/dashboard'],
      ['https://evil.example/dashboard', '/dashboard'],
      ['/dashboard/./learners/../evidence?status=submitted', '/dashboard/evidence?status=submitted'],
    ]) {
      const web = new WebClient(s.url);
      const form = await web.get('/dashboard/sign-in');
      const res = await web.post('/dashboard/sign-in', {
        _csrf: csrfOf(form.text),
        next: next!,
        tenant: 'web',
        email: 'next@example.org',
        password: PASSWORD,
      });
      expect(res.status, next).toBe(303);
      expect(res.headers.get('location'), next).toBe(location);
    }
  });

  it('refuses form fields with control characters or direction overrides (400) and writes nothing', async () => {
    const { s, apiKey } = world();
    const web = new WebClient(s.url);
    await web.signIn('web', 'admin@example.org', PASSWORD);
    const keys = async () => (await web.get('/dashboard/api-keys')).text.match(/<tr>/g)?.length;
    const users = async () =>
      (await s.call('GET', '/api/v1/tenants/web/users?limit=100', apiKey)).body.pagination.total;
    const [keysBefore, usersBefore] = [await keys(), await users()];
    for (const name of ['key\u001b[31m', 'key\u0085', 'yek\u202Eevil', 'key\u2066', 'key\u007f']) {
      const res = await web.submit('/dashboard/api-keys', '/dashboard/api-keys', { name, role: 'viewer' });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(res.text).toContain('control character');
      const user = await web.submit('/dashboard/users', '/dashboard/users', {
        email: 'ctl@example.org',
        name,
        role: 'viewer',
      });
      expect(user.status, JSON.stringify(name)).toBe(400);
    }
    expect(await keys()).toBe(keysBefore);
    expect(await users()).toBe(usersBefore);
    // Before a session too: a NUL in the sign-in form never reaches the rate-limit store (Postgres refuses NUL).
    const anonymous = new WebClient(s.url);
    const form = await anonymous.get('/dashboard/sign-in');
    const nul = await anonymous.post('/dashboard/sign-in', {
      _csrf: csrfOf(form.text),
      tenant: 'web\u0000',
      email: 'admin@example.org\u0000',
      password: PASSWORD,
    });
    expect(nul.status).toBe(400);
    expect(nul.text).toContain('control character');
    // And in a page's query: a search for a NUL never reaches the database.
    for (const page of [
      '/dashboard/learners?q=a%00b',
      '/dashboard/enrolments?programme=%E2%80%AE',
      '/dashboard/sign-in?tenant=%1B',
    ])
      expect((await web.get(page)).status, page).toBe(400);
  });

  it("refuses a form without its CSRF token, or with another session's, and writes nothing", async () => {
    const { s, apiKey } = world();
    const web = new WebClient(s.url);
    await web.signIn('web', 'admin@example.org', PASSWORD);
    const other = new WebClient(s.url);
    await other.signIn('web', 'admin@example.org', PASSWORD);
    const before = (await s.call('GET', '/api/v1/tenants/web/learners', apiKey)).status;
    expect(before).toBe(200);
    const keysBefore = (await web.get('/dashboard/api-keys')).text.match(/<tr>/g)?.length;
    expect((await web.post('/dashboard/api-keys', { name: 'no token', role: 'viewer' })).status).toBe(403);
    const foreign = csrfOf((await other.get('/dashboard/api-keys')).text);
    const res = await web.post('/dashboard/api-keys', { _csrf: foreign, name: 'wrong token', role: 'viewer' });
    expect(res.status).toBe(403);
    expect(res.text).toContain('did not come from this site');
    expect((await web.get('/dashboard/api-keys')).text.match(/<tr>/g)?.length).toBe(keysBefore);
    const signIn = await new WebClient(s.url).post('/dashboard/sign-in', {
      tenant: 'web',
      email: 'admin@example.org',
      password: PASSWORD,
    });
    expect(signIn.status).toBe(403);
  });

  it("refuses an import upload without the form token, and a viewer's upload (403, nothing kept)", async () => {
    const { s, apiKey } = world();
    const upload = async (web: WebClient, csrf: string | null) => {
      const body = new FormData();
      if (csrf) body.append('_csrf', csrf);
      body.append('type', 'learners');
      body.append('file', new Blob(['first_name,last_name,id_number\r\n']), 'x.csv');
      return fetch(`${s.url}/dashboard/imports`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: [...web.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
        body,
      });
    };
    const admin = new WebClient(s.url);
    expect((await admin.signIn('web', 'admin@example.org', PASSWORD)).status).toBe(303);
    expect((await upload(admin, null)).status).toBe(403);
    expect((await upload(admin, 'forged-token-value')).status).toBe(403);
    const viewer = new WebClient(s.url);
    await viewer.signIn('web', 'viewer@example.org', PASSWORD);
    const page = await viewer.get('/dashboard/imports');
    expect(page.text).not.toContain('enctype="multipart/form-data"');
    expect((await upload(viewer, csrfOf(page.text))).status).toBe(403);
    const listed = await s.call('GET', '/api/v1/tenants/web/imports', apiKey);
    expect(listed.body.data).toEqual([]);
  });

  it('signs out: the session ends in the store, the old cookie no longer works', async () => {
    const { s } = world();
    const web = new WebClient(s.url);
    await web.signIn('web', 'admin@example.org', PASSWORD);
    const cookie = web.cookies.get('fundi_session')!;
    const out = await web.submit('/dashboard', '/dashboard/sign-out', {});
    expect(out.status).toBe(200);
    expect(out.setCookies.find((c) => c.startsWith('fundi_session='))).toMatch(/Max-Age=0/);
    const replay = new WebClient(s.url);
    replay.cookies.set('fundi_session', cookie);
    expect((await replay.get('/dashboard')).status).toBe(302);
  });

  it('sets a first password through the one-time link, which then stops working', async () => {
    const { s } = world();
    const created = await useCasesOf(s.container, staff).createStaffUser.execute('web', {
      email: 'new@example.org',
      name: 'New Person',
      role: 'assessor',
    });
    const token = created.setPasswordToken!;
    const web = new WebClient(s.url);
    expect((await web.signIn('web', 'new@example.org', '')).status).toBe(401);
    const form = await web.get(`/dashboard/set-password?token=${encodeURIComponent(token)}`);
    expect(form.status).toBe(200);
    const short = await web.post('/dashboard/set-password', { _csrf: csrfOf(form.text), token, password: 'short' });
    expect(short.status).toBe(400);
    const set = await web.post('/dashboard/set-password', { _csrf: csrfOf(short.text), token, password: PASSWORD });
    expect(set.status).toBe(200);
    expect((await web.signIn('web', 'new@example.org', PASSWORD)).status).toBe(303);
    expect((await new WebClient(s.url).get(`/dashboard/set-password?token=${encodeURIComponent(token)}`)).status).toBe(
      403,
    );
  });

  it('limits sign-in attempts per account: the 21st in 15 minutes is 429 even with the right password', async () => {
    const { s } = world();
    await awayFromWindowEnd();
    await staffUser(s.container, 'web', 'manager', 'limited@example.org');
    const web = new WebClient(s.url);
    for (let i = 0; i < 20; i++)
      expect((await web.signIn('web', 'limited@example.org', 'not the password')).status).toBe(401);
    const res = await web.signIn('web', 'limited@example.org', PASSWORD);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(web.cookies.has('fundi_session')).toBe(false);
  }, 60_000);

  it('limits sign-in attempts per client address, whichever accounts they try', async () => {
    const { s } = world();
    const app = httpApp(s.container, {
      authCacheMs: 0,
      anonymousLimits: { perMinute: 1000, perDay: null },
      trustProxy: true,
      signInLimits: { perAddress: 3, perAccount: 100 },
    });
    const server: Server = app.listen(0, '127.0.0.1');
    await new Promise((ok) => server.once('listening', ok));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const from = (ip: string) => new WebClient(base, { 'x-forwarded-for': ip });
      await awayFromWindowEnd();
      for (const who of ['a', 'b', 'c'])
        expect((await from('10.9.8.7').signIn('web', `${who}@example.org`, 'x')).status).toBe(401);
      expect((await from('10.9.8.7').signIn('web', 'admin@example.org', PASSWORD)).status).toBe(429);
      expect((await from('10.9.8.6').signIn('web', 'admin@example.org', PASSWORD)).status).toBe(303);
    } finally {
      server.close();
    }
  }, 60_000);
});
