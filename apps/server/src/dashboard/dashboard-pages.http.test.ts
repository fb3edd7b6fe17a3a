import { expect, it } from 'vitest';
import { declaredBy } from '@fundi/adapters';
import { DASHBOARD_PAGES } from '@fundi/application/notifications';
import { STORAGE_ONLY } from '../capabilities/index.js';
import { PASSWORD, WebClient, csrfOf, staffUser } from '../testing/dashboard-client.js';
import { enrolledLearner, idNumberFor } from '../testing/training-fixtures.js';
import { XSS, describeDashboardSuite } from './dashboard-http-fixture.js';

describeDashboardSuite('dashboard over HTTP: pages and forms per role and capability', (world) => {
  it('shows a viewer no write buttons, refuses admin pages, and refuses their posts (403, nothing written)', async () => {
    const { s, apiKey } = world();
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
    const { s, apiKey } = world();
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

  it('creates an API key shown once, which works against the API until revoked (then 401)', async () => {
    const { s } = world();
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
    const { s } = world();
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
    const { s, apiKey } = world();
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
    const { s } = world();
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
    const { s, apiKey } = world();
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

  it('serves every page a staff or admin message links to (the security alert to the API keys)', async () => {
    const { s } = world();
    const web = new WebClient(s.url);
    await web.signIn('web', 'admin@example.org', PASSWORD);
    expect(DASHBOARD_PAGES.apiKeys).toBe('/api-keys');
    // The notifications' own pages, and those every capability's triggers link to (`Triggers.pages`).
    const offered = declaredBy(STORAGE_ONLY()).hooks.triggers.flatMap((t) => t.pages ?? []);
    expect(offered).toEqual(expect.arrayContaining(['/evidence', '/exports']));
    for (const path of [...Object.values(DASHBOARD_PAGES), ...offered])
      expect((await web.get(`/dashboard${path}`)).status, path).toBe(200);
  });

  it('routes a page as the API routes: HEAD, one trailing slash, either case; another method is a missing page', async () => {
    const { s } = world();
    const web = new WebClient(s.url);
    await web.signIn('web', 'admin@example.org', PASSWORD);
    const cookie = [...web.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const head = await fetch(`${s.url}/dashboard/learners`, { method: 'HEAD', headers: { cookie } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await head.text()).toBe('');
    expect((await web.get('/dashboard/learners/')).status).toBe(200);
    expect((await web.get('/dashboard/Learners')).status).toBe(200);
    expect((await web.get('/dashboard/learners//')).status).toBe(404);
    const put = await fetch(`${s.url}/dashboard/learners`, { method: 'PUT', headers: { cookie } });
    expect(put.status).toBe(404);
    expect(put.headers.get('allow')).toBeNull();
    expect(await put.text()).toContain('This page or record does not exist.');
    expect((await web.post('/dashboard/learners', { _csrf: 'x' })).status).toBe(404);
  });

  it('answers an unknown page or record with 404 and a bad form body with 400, never 500', async () => {
    const { s } = world();
    const web = new WebClient(s.url);
    await web.signIn('web', 'admin@example.org', PASSWORD);
    const missing = await web.get('/dashboard/nothing-here');
    expect(missing.status).toBe(404);
    // Signed in, the page offers the dashboard (its navigation, the overview), never a sign-in.
    expect(missing.text).toContain('<nav aria-label="Main">');
    expect(missing.text).toContain('<a href="/dashboard">Go to the overview</a>');
    expect(missing.text).not.toContain('/dashboard/sign-in');
    expect(missing.text).toContain('Sign out admin@example.org');
    const signedOut = await new WebClient(s.url).get('/dashboard/nothing-here');
    expect(signedOut.status).toBe(404);
    expect(signedOut.text).toContain('<a href="/dashboard/sign-in">Sign in</a>');
    expect(signedOut.text).not.toContain('<nav aria-label="Main">');
    expect((await web.get('/dashboard/learners/lrn_unknown')).status).toBe(404);
    expect((await web.get('/dashboard/webhooks/whs_unknown')).status).toBe(404);
    const big = await web.submit('/dashboard', '/dashboard/api-keys', { name: 'x'.repeat(70_000), role: 'viewer' });
    expect(big.status).toBe(400);
    const invalid = await web.submit('/dashboard/api-keys', '/dashboard/api-keys', { name: 'bad', role: 'emperor' });
    expect(invalid.status).toBe(200);
    expect(invalid.text).toContain('role must be one of');
  });
});
