import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@fundi/server/testing';

describe('webhook subscription endpoints, both forms (SQLite)', () => {
  let s: TestServer;
  let admin: string;
  let acmeId: string;
  let other: string;
  const A = '/api/v1/webhook-subscriptions';
  const B = '/api/v1/tenants/acme/webhook-subscriptions';
  const create = (body: unknown, path = A, key = admin) => s.call('POST', path, key, body);
  const valid = { url: 'https://hooks.example.com/fundi', events: ['learner.created', 'assessment.completed'] };

  beforeAll(async () => {
    s = await startTestServer('sqlite', { webhooks: { allowHttp: false } });
    ({ key: admin, id: acmeId } = await s.tenant('acme'));
    other = (await s.tenant('other')).key;
  });
  afterAll(async () => s.close());

  it('refuses a receiver on a private, loopback or link-local address when it is set, not only at delivery', async () => {
    for (const url of [
      'https://10.0.0.1/hook',
      'https://192.168.1.5/hook',
      'https://[::1]/hook',
      'https://169.254.169.254/latest',
      'https://[::ffff:10.0.0.1]/x',
      'https://127.0.0.2/hook',
    ]) {
      const r = await s.call('POST', '/api/v1/webhook-subscriptions', admin, { ...valid, url });
      expect(r.status, url).toBe(422);
      expect(r.body.error.details[0], url).toMatchObject({ field: 'url' });
    }
    const made = await s.call('POST', '/api/v1/webhook-subscriptions', admin, valid);
    expect(made.status).toBe(201);
    const moved = await s.call('PATCH', `/api/v1/webhook-subscriptions/${made.body.id}`, admin, {
      url: 'https://10.1.2.3/hook',
    });
    expect(moved.status).toBe(422);
    expect((await s.call('GET', `/api/v1/webhook-subscriptions/${made.body.id}`, admin)).body.url).toBe(valid.url);
    // A name that does not resolve yet is accepted: delivery resolves and checks it again.
    expect(
      (
        await s.call('PATCH', `/api/v1/webhook-subscriptions/${made.body.id}`, admin, {
          url: 'https://not-yet.invalid/hook',
        })
      ).status,
    ).toBe(200);
  });

  it('creates with a generated secret shown once; get and list never show it', async () => {
    const created = await create(valid);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      url: valid.url,
      events: valid.events,
      enabled: true,
      disabledReason: null,
      previousSecretExpiresAt: null,
    });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.body.id).toMatch(/^whs_/);
    const got = await s.call('GET', `${B}/${created.body.id}`, admin);
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty('secret');
    const listA = await s.call('GET', `${A}?limit=1`, admin);
    expect(listA.body.pagination).toMatchObject({ total: expect.any(Number), hasMore: expect.any(Boolean) });
    expect(JSON.stringify(listA.body)).not.toContain(created.body.secret);
    const listB = await s.call('GET', `${B}?limit=5&offset=0`, admin);
    expect(listB.body.pagination).toMatchObject({ limit: 5, offset: 0 });
    expect(JSON.stringify(listB.body)).not.toContain('secret"');
  });

  it('accepts a caller-chosen secret', async () => {
    const r = await create({ ...valid, secret: "It's a Secret to Everybody" }, B);
    expect(r.status).toBe(201);
    expect(r.body.secret).toBe("It's a Secret to Everybody");
  });

  it("rejects bad input naming the field, in each form's envelope", async () => {
    const cases: [unknown, string][] = [
      [{ ...valid, events: ['learner.deleted'] }, 'events.0'],
      [{ ...valid, events: [] }, 'events'],
      [{ ...valid, events: ['ping'] }, 'events.0'],
      [{ ...valid, url: 'http://hooks.example.com/' }, 'url'],
      [{ ...valid, url: 'ftp://x' }, 'url'],
      [{ ...valid, url: 'not a url' }, 'url'],
      [{ ...valid, nope: 1 }, 'nope'],
      [{ ...valid, secret: 'short' }, 'secret'],
      [{ events: valid.events }, 'url'],
    ];
    for (const [body, field] of cases) {
      const a = await create(body);
      expect(a.status, JSON.stringify(body)).toBe(422);
      expect(a.body.error.code).toBe('validation_error');
      expect(a.body.error.details[0].field).toBe(field);
      const b = await create(body, B);
      expect(b.status).toBe(400);
      expect(b.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field } });
    }
  });

  it('answers 401 without a key, 403 without the scope or under another slug', async () => {
    expect((await s.call('GET', A)).status).toBe(401);
    const viewer = (await s.key('acme', 'viewer')).key;
    expect((await s.call('GET', A, viewer)).status).toBe(200);
    const denied = await create(valid, A, viewer);
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('forbidden');
    const assessor = (await s.key('acme', 'assessor')).key;
    expect((await s.call('GET', B, assessor)).status).toBe(403);
    expect((await s.call('GET', B, other)).body.error.code).toBe('FORBIDDEN');
  });

  it("keeps tenants apart: another tenant's subscription is 404 everywhere", async () => {
    const id = (await create(valid)).body.id as string;
    for (const [method, path, body] of [
      ['GET', `${A}/${id}`],
      ['PATCH', `${A}/${id}`, { enabled: false }],
      ['DELETE', `${A}/${id}`],
      ['POST', `${A}/${id}/rotate-secret`, {}],
      ['POST', `${A}/${id}/test`, {}],
      ['GET', `${A}/${id}/deliveries`],
      ['POST', `${A}/${id}/replay`, { since: '2026-01-01' }],
      ['POST', `${A}/${id}/enable`, {}],
      ['POST', `${A}/${id}/deliveries/dlv_x/replay`, {}],
    ] as [string, string, unknown?][]) {
      const r = await s.call(method, path, other, body);
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    expect((await s.call('GET', `/v1/tenants/other/webhook-subscriptions/${id}`, other)).body.error.code).toBe(
      'NOT_FOUND',
    );
    expect((await s.call('GET', `${A}?limit=100`, other)).body.data).toEqual([]);
  });

  it('updates, disables, refuses tests while disabled, enables, rotates and deletes', async () => {
    const id = (await create(valid)).body.id as string;
    const patched = await s.call('PATCH', `${B}/${id}`, admin, { events: ['export.ready'], enabled: false });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ events: ['export.ready'], enabled: false, disabledReason: 'disabled_by_api' });
    const test = await s.call('POST', `${A}/${id}/test`, admin);
    expect(test.status).toBe(409);
    expect(test.body.error.code).toBe('conflict');
    expect((await s.call('POST', `${A}/${id}/replay`, admin, { since: '2026-01-01T00:00:00Z' })).status).toBe(409);
    const enabled = await s.call('POST', `${A}/${id}/enable`, admin);
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null, requeued: 0 });
    const ping = await s.call('POST', `${B}/${id}/test`, admin);
    expect(ping.status).toBe(202);
    expect(ping.body).toMatchObject({ type: 'ping', status: 'queued', eventId: expect.stringMatching(/^evt_/) });
    const rotated = await s.call('POST', `${A}/${id}/rotate-secret`, admin);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(Date.parse(rotated.body.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    const replay = await s.call('POST', `${A}/${id}/replay`, admin, { since: '2026-01-01' });
    expect(replay.status).toBe(202);
    expect(replay.body).toMatchObject({
      jobId: expect.stringMatching(/^job_/),
      since: '2026-01-01T00:00:00.000Z',
      status: 'queued',
    });
    expect((await s.call('POST', `${A}/${id}/replay`, admin, { since: 'yesterday' })).status).toBe(422);
    expect((await s.call('POST', `${A}/${id}/replay`, admin, { since: '2999-01-01' })).status).toBe(422);
    expect((await s.call('POST', `${A}/${id}/deliveries/dlv_missing/replay`, admin)).status).toBe(404);
    const log = await s.call('GET', `${A}/${id}/deliveries`, admin);
    expect(log.status).toBe(200);
    expect(log.body).toMatchObject({ data: [], pagination: { total: 0, hasMore: false } });
    const audit = await s.storage.repos.audit.list(acmeId, { resourceId: id, limit: 20 });
    expect(audit.map((e) => e.action).reverse()).toEqual([
      'webhook_subscription.created',
      'webhook_subscription.updated',
      'webhook_subscription.disabled',
      'webhook_subscription.enabled',
      'webhook_subscription.test_sent',
      'webhook_subscription.secret_rotated',
      'webhook_subscription.replay_requested',
    ]);
    expect((await s.call('DELETE', `${A}/${id}`, admin)).status).toBe(204);
    expect((await s.call('GET', `${A}/${id}`, admin)).status).toBe(404);
  });

  it('describes every event under the OpenAPI 3.1 webhooks section', async () => {
    const doc = (await s.call('GET', '/v1/openapi.json')).body;
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.webhooks).sort()).toEqual([
      'assessment.completed',
      'assessment.recorded',
      'enrolment.status_changed',
      'evidence.reviewed',
      'evidence.uploaded',
      'export.completed',
      'export.ready',
      'hr.learner.competency',
      'hr.learner.completed',
      'import.completed',
      'learner.created',
      'learner.updated',
      'moderation.completed',
      'moderation.sample_drawn',
      'ping',
      'statement.issued',
      'statement.revoked',
    ]);
    const body = doc.webhooks['learner.created'].post.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(expect.arrayContaining(['id', 'type', 'timestamp', 'tenantId', 'data']));
    expect(doc.paths['/api/v1/webhook-subscriptions/{id}/deliveries/{deliveryId}/replay']).toBeDefined();
    expect(doc.paths['/api/v1/tenants/{slug}/webhook-subscriptions/{id}/rotate-secret']).toBeDefined();
    // The `/v1/tenants/{slug}` alias is served but described once, in the document's description.
    expect(doc.paths['/v1/tenants/{slug}/webhook-subscriptions/{id}/rotate-secret']).toBeUndefined();
    expect(doc.info.description).toContain('/v1/tenants/{slug}');
  });
});
