import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useCasesOf } from '@fundi/adapters';
import { describeEachStorage } from '@fundi/adapters/testing';
import { staff } from '../capabilities/index.js';
import { httpApp } from '../compose.js';
import { PASSWORD, WebClient, csrfOf, staffUser } from '../testing/dashboard-client.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { enrolledLearner, idNumberFor } from '../testing/training-fixtures.js';

/**
 * Sign-in attempts count in fixed 15-minute windows (docs/dashboard.md): a test whose attempts straddled the end of
 * one would see the count start again. Waits out the window's last 30 seconds.
 */
async function awayFromWindowEnd(): Promise<void> {
  const left = 900_000 - (Date.now() % 900_000);
  if (left < 30_000) await new Promise((ok) => setTimeout(ok, left + 100));
}

const XSS = '<img src=x onerror=alert(1)>';

describeEachStorage(
  'dashboard over HTTP',
  (_get, kind) => {
    let s: TestServer;
    let apiKey: string;

    beforeAll(async () => {
      s = await startTestServer(kind);
      apiKey = (await s.tenant('web')).key;
      await s.tenant('web-other');
      await staffUser(s.container, 'web', 'admin');
      await staffUser(s.container, 'web', 'viewer');
      await staffUser(s.container, 'web-other', 'admin');
    });
    afterAll(() => s?.close());

    it('signs in with a session cookie that is HttpOnly, SameSite=Lax, scoped to /dashboard, not Secure over http', async () => {
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
      const res = await new WebClient(s.url).get('/dashboard/sign-in');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('content-security-policy')).not.toContain('unsafe-inline');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('same-origin');
    });

    it('refuses a wrong password, an unknown user and another tenant alike (401), and sends signed-out visitors to sign in', async () => {
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

    it("refuses a form without its CSRF token, or with another session's, and writes nothing", async () => {
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

    it('shows a viewer no write buttons, refuses admin pages, and refuses their posts (403, nothing written)', async () => {
      const web = new WebClient(s.url);
      await web.signIn('web', 'viewer@example.org', PASSWORD);
      const keys = await web.get('/dashboard/api-keys');
      expect(keys.status).toBe(403);
      const hooks = await web.get('/dashboard/webhooks');
      expect(hooks.status).toBe(200);
      expect(hooks.text).not.toContain('Add a subscription');
      expect(hooks.text).not.toContain('API keys');
      const settings = await web.get('/dashboard/settings');
      expect(settings.text).not.toContain('Save retention');
      const token = csrfOf(settings.text);
      const post = await web.post('/dashboard/webhooks', {
        _csrf: token,
        url: 'https://example.org/h',
        events: 'learner.created',
      });
      expect(post.status).toBe(403);
      expect((await web.post('/dashboard/api-keys', { _csrf: token, name: 'x', role: 'admin' })).status).toBe(403);
      expect((await web.post('/dashboard/settings/retention', { _csrf: token, years: '3' })).status).toBe(403);
      const exportsPage = await web.get('/dashboard/exports');
      expect(exportsPage.status).toBe(200);
      expect(exportsPage.text).not.toContain('Start export');
      expect((await web.post('/dashboard/exports', { _csrf: token, type: 'learners' })).status).toBe(403);
      expect((await web.post('/dashboard/exports/readiness', { _csrf: token, type: 'qcto01' })).status).toBe(403);
      expect((await s.call('GET', '/api/v1/exports', apiKey)).body.data).toEqual([]);
      expect((await web.get('/dashboard/users')).status).toBe(403);
      const list = await s.call('GET', '/api/v1/webhook-subscriptions', apiKey);
      expect(list.body.data).toEqual([]);
    });

    it('renders a learner named like markup as text on the list and on their record', async () => {
      const created = await s.call('POST', '/api/v1/learners', apiKey, {
        firstName: XSS,
        lastName: 'Mokoena',
        idNumber: '9001049818080',
      });
      expect(created.status).toBe(201);
      const web = new WebClient(s.url);
      await web.signIn('web', 'viewer@example.org', PASSWORD);
      for (const path of ['/dashboard/learners?q=Mokoena', `/dashboard/learners/${created.body.id}`]) {
        const page = await web.get(path);
        expect(page.status).toBe(200);
        expect(page.text).not.toContain(XSS);
        expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
      }
    });

    it('signs out: the session ends in the store, the old cookie no longer works', async () => {
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
      expect(
        (await new WebClient(s.url).get(`/dashboard/set-password?token=${encodeURIComponent(token)}`)).status,
      ).toBe(403);
    });

    it('limits sign-in attempts per account: the 21st in 15 minutes is 429 even with the right password', async () => {
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

    it('creates an API key shown once, which works against the API until revoked (then 401)', async () => {
      const web = new WebClient(s.url);
      await web.signIn('web', 'admin@example.org', PASSWORD);
      const created = await web.submit('/dashboard/api-keys', '/dashboard/api-keys', {
        name: 'HR system',
        role: 'integration',
      });
      expect(created.status).toBe(200);
      const key = /id="new-key" class="secret" readonly value="([^"]+)"/.exec(created.text)![1]!;
      expect((await s.call('GET', '/api/v1/learners', key)).status).toBe(200);
      expect((await web.get('/dashboard/api-keys')).text).not.toContain(key);
      const id = /\/dashboard\/api-keys\/(key_[a-z0-9]+)\/revoke" data-confirm="Revoke the key HR system/.exec(
        (await web.get('/dashboard/api-keys')).text,
      )![1]!;
      const revoked = await web.submit('/dashboard/api-keys', `/dashboard/api-keys/${id}/revoke`, {});
      expect(revoked.status).toBe(303);
      expect((await s.call('GET', '/api/v1/learners', key)).status).toBe(401);
    });

    it('lets an administrator add a staff user (one-time link) and disable them, ending their session', async () => {
      const admin = new WebClient(s.url);
      await admin.signIn('web', 'admin@example.org', PASSWORD);
      const added = await admin.submit('/dashboard/users', '/dashboard/users', {
        email: 'Added@Example.org',
        name: 'Sipho Added',
        role: 'assessor',
      });
      expect(added.status).toBe(200);
      const link = new URL(/id="new-link" class="secret" readonly value="([^"]+)"/.exec(added.text)![1]!);
      const person = new WebClient(s.url);
      const form = await person.get(link.pathname + link.search);
      expect(form.status).toBe(200);
      const token = link.searchParams.get('token')!;
      const set = await person.post('/dashboard/set-password', { _csrf: csrfOf(form.text), token, password: PASSWORD });
      expect(set.status).toBe(200);
      expect((await person.signIn('web', 'added@example.org', PASSWORD)).status).toBe(303);
      expect((await person.get('/dashboard/evidence')).status).toBe(200);
      const dup = await admin.submit('/dashboard/users', '/dashboard/users', {
        email: 'added@example.org',
        name: 'X',
        role: 'viewer',
      });
      expect(dup.text).toContain('already exists');
      const invited = await admin.submit('/dashboard/users', '/dashboard/users', {
        email: 'invited@example.org',
        name: 'Invited Person',
        role: 'viewer',
        invite: '1',
      });
      expect(invited.text).toContain('invitation email with a set-password link');
      expect(invited.text).not.toContain('id="new-link"');
      const events = await s.storage.repos.outbox.list((await s.storage.repos.tenants.findBySlug('web'))!.id, {
        types: ['user.invited'],
        limit: 10,
      });
      expect(events).toHaveLength(1);
      const users = (await admin.get('/dashboard/users')).text;
      const userId =
        /action="\/dashboard\/users\/(usr_\w+)\/disable"><input[^>]*><button[^>]*aria-label="Disable added@example.org"/.exec(
          users,
        )![1]!;
      expect((await admin.submit('/dashboard/users', `/dashboard/users/${userId}/disable`, {})).status).toBe(303);
      expect((await person.get('/dashboard/evidence')).status).toBe(302);
      expect((await person.signIn('web', 'added@example.org', PASSWORD)).status).toBe(401);
      const viewer = new WebClient(s.url);
      await viewer.signIn('web', 'viewer@example.org', PASSWORD);
      expect((await viewer.get('/dashboard/users')).status).toBe(403);
    });

    it('shows a review made in the dashboard as the staff user who made it in the API, still named once disabled', async () => {
      const reviewer = (await staffUser(s.container, 'web', 'assessor', 'reviewer@example.org')).user;
      const { learnerId } = await enrolledLearner(s, apiKey, '/api/v1', {
        code: 'P-WHO',
        idNumber: idNumberFor(4242),
        modules: ['KM-01'],
      });
      const file = Buffer.from('%PDF-1.7\nlogbook\n%%EOF\n');
      const grant = await s.call('POST', '/api/v1/evidence/upload', apiKey, {
        learnerId,
        moduleId: 'KM-01',
        evidenceType: 'logbook',
        filename: 'logbook.pdf',
        contentType: 'application/pdf',
        size: file.length,
      });
      expect(grant.status).toBe(201);
      expect((await s.call('PUT', new URL(grant.body.uploadUrl).pathname, undefined, file)).status).toBe(201);
      const id = grant.body.evidenceId as string;

      const web = new WebClient(s.url);
      expect((await web.signIn('web', 'reviewer@example.org', PASSWORD)).status).toBe(303);
      const reviewed = await web.submit(`/dashboard/evidence/${id}`, `/dashboard/evidence/${id}/review`, {
        status: 'approved',
        feedback: 'Signed off',
      });
      expect(reviewed.status).toBe(303);

      const byReviewer = { type: 'user', id: reviewer.id, name: 'The assessor' };
      const one = await s.call('GET', `/api/v1/evidence/${id}`, apiKey);
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ status: 'approved', feedback: 'Signed off', reviewedBy: byReviewer });
      expect(one.body.uploadedBy).toMatchObject({ type: 'api_key', name: expect.any(String) });
      const list = await s.call('GET', `/api/v1/tenants/web/evidence?learnerId=${learnerId}`, apiKey);
      expect(list.body.data).toEqual([expect.objectContaining({ id, reviewedBy: byReviewer })]);
      const versions = await s.call('GET', `/api/v1/evidence/${id}/versions`, apiKey);
      expect(versions.body.data).toEqual([expect.objectContaining({ version: 1, reviewedBy: byReviewer })]);

      // A disabled user's old reviews keep their name (docs/api.md, "Who did it": null only once they no longer exist).
      const admin = new WebClient(s.url);
      await admin.signIn('web', 'admin@example.org', PASSWORD);
      expect((await admin.submit('/dashboard/users', `/dashboard/users/${reviewer.id}/disable`, {})).status).toBe(303);
      expect((await s.call('GET', `/api/v1/evidence/${id}`, apiKey)).body.reviewedBy).toEqual(byReviewer);
    });

    it('saves the regulator codes (administrators only) and reports a bad code by field', async () => {
      const admin = new WebClient(s.url);
      await admin.signIn('web', 'admin@example.org', PASSWORD);
      const bad = await admin.submit('/dashboard/settings', '/dashboard/settings/regulator', {
        sdpCode: '<bad>',
        flcStatus: '09',
      });
      expect(bad.text).toContain('sdpCode must be at most 20 letters');
      expect(bad.text).toContain('flcStatus must be one of');
      const ok = await admin.submit('/dashboard/settings', '/dashboard/settings/regulator', {
        sdpCode: 'SDP-1234',
        flcStatus: '02',
      });
      expect(ok.text).toContain('Regulator codes saved.');
      expect(ok.text).toContain('value="SDP-1234"');
      const viewer = new WebClient(s.url);
      await viewer.signIn('web', 'viewer@example.org', PASSWORD);
      const page = await viewer.get('/dashboard/settings');
      expect(page.text).not.toContain('Regulator codes');
      expect(
        (await viewer.post('/dashboard/settings/regulator', { _csrf: csrfOf(page.text), sdpCode: 'X' })).status,
      ).toBe(403);
    });

    it('rotates a webhook secret (shown once) and deletes a subscription after the page asked to confirm', async () => {
      const web = new WebClient(s.url);
      await web.signIn('web', 'admin@example.org', PASSWORD);
      const made = await web.submit('/dashboard/webhooks', '/dashboard/webhooks', {
        url: 'https://hooks.example.org/fundi',
        events: ['learner.created', 'evidence.reviewed'],
      });
      const first = /id="new-secret" class="secret" readonly value="([^"]+)"/.exec(made.text)![1]!;
      const id = /href="\/dashboard\/webhooks\/(whs_\w+)"/.exec(made.text)![1]!;
      const page = await web.get(`/dashboard/webhooks/${id}`);
      expect(page.text).toContain('data-confirm="Delete the subscription to https://hooks.example.org/fundi?');
      const rotated = await web.submit(`/dashboard/webhooks/${id}`, `/dashboard/webhooks/${id}/rotate-secret`, {});
      const second = /id="new-secret" class="secret" readonly value="([^"]+)"/.exec(rotated.text)![1]!;
      expect(second).toMatch(/^whsec_/);
      expect(second).not.toBe(first);
      const removed = await web.submit(`/dashboard/webhooks/${id}`, `/dashboard/webhooks/${id}/delete`, {});
      expect(removed.status).toBe(303);
      expect((await web.get(`/dashboard/webhooks/${id}`)).status).toBe(404);
      expect((await s.call('GET', `/api/v1/webhook-subscriptions/${id}`, apiKey)).status).toBe(404);
    });

    it('answers an unknown page or record with 404 and a bad form body with 400, never 500', async () => {
      const web = new WebClient(s.url);
      await web.signIn('web', 'admin@example.org', PASSWORD);
      expect((await web.get('/dashboard/nothing-here')).status).toBe(404);
      expect((await web.get('/dashboard/learners/lrn_unknown')).status).toBe(404);
      expect((await web.get('/dashboard/webhooks/whs_unknown')).status).toBe(404);
      const big = await web.submit('/dashboard', '/dashboard/api-keys', { name: 'x'.repeat(70_000), role: 'viewer' });
      expect(big.status).toBe(400);
      const invalid = await web.submit('/dashboard/api-keys', '/dashboard/api-keys', { name: 'bad', role: 'emperor' });
      expect(invalid.status).toBe(200);
      expect(invalid.text).toContain('role must be one of');
    });
  },
  ['sqlite', 'postgres'],
);
