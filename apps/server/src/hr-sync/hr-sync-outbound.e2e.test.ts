import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describeEachStorage } from '@fundi/adapters/testing';
import { HR_OUTBOUND_EVENT_DATA } from '@fundi/http/hr-sync';
import { FixedClock } from '@fundi/testing';
import { idNumberFor } from '@fundi/domain/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { hrReceiver } from './testing/hr-receiver.js';
import { employee, hrTenant } from './testing/hr-sync-fixtures.js';

const hex = (secret: string, body: string) =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');

describeEachStorage('HR sync outbound through the webhook machinery (server + worker)', (_get, kind) => {
  let s: TestServer;
  let rx: Awaited<ReturnType<typeof hrReceiver>>;
  let t: Awaited<ReturnType<typeof hrTenant>>;
  let secret: string;
  let employeeLearnerId: string;
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    s = await startTestServer(kind, { worker: {} });
    rx = await hrReceiver();
    t = await hrTenant(s, 'hr-out', { modules: ['KM-01'], programme: 'SP-OUT' });
    const put = await s.call('PUT', '/api/v1/tenants/hr-out/hr-sync', t.admin, { outboundUrl: rx.url });
    expect(put.status).toBe(200);
    expect(put.body.outbound).toEqual({ enabled: true, disabledReason: null, previousSecretExpiresAt: null });
    secret = put.body.signingSecret;
    expect(secret).toMatch(/^whsec_/);
    expect((await s.call('PUT', '/api/v1/hr-sync', t.admin, { enabled: true })).body).not.toHaveProperty(
      'signingSecret',
    );
  });
  afterAll(async () => {
    await s?.close();
    await rx?.close();
  });

  it('employee.enrolled sends the new learner the welcome notification, once for the same event twice', async () => {
    const event = {
      id: `evt-welcome-${kind}`,
      event: 'employee.enrolled',
      data: { ...employee(7, { email: `welcome.${kind}@example.org` }, idNumberFor(9107)), programmeCode: 'SP-OUT' },
    };
    const total = async (what: string) =>
      (await s.call('GET', `/api/v1/${what}?limit=1`, t.admin)).body.pagination.total as number;
    const before = [await total('learners'), await total('enrolments')];
    const first = await t.post(event);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.created).toBe(true);
    expect((await t.post(event)).body).toEqual(first.body);
    const learnerId = first.body.learnerId as string;
    const enrolment = await s.call('GET', `/api/v1/enrolments/${first.body.enrolmentId}`, t.admin);
    expect(enrolment.body).toMatchObject({ learnerId, programmeCode: 'SP-OUT', status: 'enrolled' });
    expect([await total('learners'), await total('enrolments')]).toEqual([before[0]! + 1, before[1]! + 1]);
    const welcomes = async () =>
      (await s.call('GET', `/api/v1/notifications?recipientId=${learnerId}`, t.admin)).body.data as {
        status: string;
        template: string;
        to: string;
      }[];
    let welcome: Awaited<ReturnType<typeof welcomes>> = [];
    for (let i = 0; i < 200 && !welcome.some((n) => n.status === 'sent'); i++) {
      await new Promise((r) => setTimeout(r, 25));
      welcome = await welcomes();
    }
    expect(welcome).toHaveLength(1);
    expect(welcome[0]).toMatchObject({ template: 'welcome', status: 'sent', to: `welcome.${kind}@example.org` });
    // A third copy after the worker has handled the first: still one learner, one enrolment, one welcome.
    expect((await t.post(event)).body).toEqual(first.body);
    await new Promise((r) => setTimeout(r, 500));
    expect(await welcomes()).toHaveLength(1);
    expect([await total('learners'), await total('enrolments')]).toEqual([before[0]! + 1, before[1]! + 1]);
  });

  it('learner.competency and learner.completed reach HR, signed like webhooks; learners without employeeRef send nothing', async () => {
    const hr = await t.post({
      event: 'employee.enrolled',
      data: { ...employee(1, {}, idNumberFor(9101)), programmeCode: 'SP-OUT' },
    });
    expect(hr.status).toBe(200);
    const { learnerId, enrolmentId } = hr.body;
    employeeLearnerId = learnerId;
    expect(
      (await s.call('PATCH', `/api/v1/enrolments/${enrolmentId}/status`, t.admin, { status: 'in_progress' })).status,
    ).toBe(200);
    const a = await s.call('POST', '/api/v1/assessments', t.admin, {
      learnerId,
      moduleCode: 'KM-01',
      assessmentType: 'summative',
      outcome: 'C',
      assessmentDate: today,
    });
    expect(a.status).toBe(201);
    const bad = await s.call('PATCH', `/api/v1/enrolments/${enrolmentId}/status`, t.admin, {
      status: 'suspended',
      certificateNumber: 'X',
    });
    expect(bad.status).toBe(422);
    const done = await s.call('PATCH', `/api/v1/enrolments/${enrolmentId}/status`, t.admin, {
      status: 'completed',
      certificateNumber: 'CERT-2026-001',
    });
    expect(done.status).toBe(200);

    // A walk-in learner (no employeeRef) completes the same programme: HR hears nothing of it.
    const walkIn = await s.call('POST', '/api/v1/learners', t.admin, {
      firstName: 'Sipho',
      lastName: 'Zulu',
      idNumber: idNumberFor(9202),
    });
    const e2 = await s.call('POST', '/api/v1/enrolments', t.admin, {
      learnerId: walkIn.body.id,
      programmeCode: 'SP-OUT',
      startDate: today,
    });
    await s.call('POST', '/api/v1/assessments', t.admin, {
      learnerId: walkIn.body.id,
      moduleCode: 'KM-01',
      assessmentType: 'summative',
      outcome: 'C',
      assessmentDate: today,
    });
    await s.call('PATCH', `/api/v1/enrolments/${e2.body.id}/status`, t.admin, { status: 'in_progress' });
    await s.call('PATCH', `/api/v1/enrolments/${e2.body.id}/status`, t.admin, { status: 'completed' });

    await rx.waitFor(() => rx.of('learner.completed').length >= 1 && rx.of('learner.competency').length >= 1);
    const [completed] = rx.of('learner.completed');
    expect(completed!.headers['x-webhook-signature']).toBe(hex(secret, completed!.body));
    const verified = new Webhook(secret).verify(completed!.body, completed!.headers as Record<string, string>) as {
      data: unknown;
    };
    expect(verified).toEqual({
      event: 'learner.completed',
      timestamp: expect.any(String),
      data: {
        employeeRef: 'E-1',
        qualificationId: '91761',
        qualificationName: 'Programme SP-OUT',
        programmeCode: 'SP-OUT',
        achievementDate: today,
        certificateNumber: 'CERT-2026-001',
      },
    });
    // The payloads are the ones the OpenAPI document describes.
    expect(HR_OUTBOUND_EVENT_DATA['learner.completed'].data.parse(verified.data)).toEqual(verified.data);
    const [competency] = rx.of('learner.competency');
    const cdata = JSON.parse(competency!.body).data;
    expect(HR_OUTBOUND_EVENT_DATA['learner.competency'].data.parse(cdata)).toEqual(cdata);
    expect(competency!.headers['x-webhook-signature']).toBe(hex(secret, competency!.body));
    expect(JSON.parse(competency!.body)).toMatchObject({
      event: 'learner.competency',
      data: { employeeRef: 'E-1', moduleCode: 'KM-01', outcome: 'C', date: today },
    });
    await new Promise((ok) => setTimeout(ok, 300));
    expect(rx.of('learner.completed')).toHaveLength(1);
    expect(rx.of('learner.competency')).toHaveLength(1);
    // Nothing else (no webhook events) reaches HR, and the HR subscription is not a webhook subscription.
    expect(rx.received.every((r) => String(r.headers['x-webhook-event']).startsWith('learner.c'))).toBe(true);
    expect((await s.call('GET', '/api/v1/webhook-subscriptions', t.admin)).body.data).toEqual([]);
    const hrSub = await s.storage.db?.first<{ id: string }>(
      `SELECT id FROM webhook_subscriptions WHERE purpose = 'hr_sync' AND tenant_id = ?`,
      [t.tenantId],
    );
    if (s.storage.db) {
      for (const [method, path] of [
        ['GET', `/api/v1/webhook-subscriptions/${hrSub!.id}`],
        ['PATCH', `/api/v1/webhook-subscriptions/${hrSub!.id}`],
        ['DELETE', `/api/v1/webhook-subscriptions/${hrSub!.id}`],
        ['GET', `/api/v1/webhook-subscriptions/${hrSub!.id}/deliveries`],
      ] as const) {
        const r = await s.call(method, path, t.admin, method === 'PATCH' ? { enabled: false } : undefined);
        expect(r.status, `${method} ${path}`).toBe(404);
      }
    }
  });

  it('GET /hr-sync/deliveries lists the attempts; a replay sends the same event id again', async () => {
    const list = await s.call('GET', '/api/v1/tenants/hr-out/hr-sync/deliveries?limit=10', t.admin);
    expect(list.status).toBe(200);
    const completed = list.body.data.find((d: { eventType: string }) => d.eventType === 'learner.completed');
    expect(completed).toMatchObject({ statusCode: 200, attempt: 1, error: null });
    const replay = await s.call('POST', `/api/v1/hr-sync/deliveries/${completed.deliveryId}/replay`, t.admin);
    expect(replay.status).toBe(202);
    await rx.waitFor(() => rx.of('learner.completed').length === 2);
    const [a, b] = rx.of('learner.completed');
    expect(b!.headers['webhook-id']).toBe(a!.headers['webhook-id']);
    expect((await s.call('POST', '/api/v1/hr-sync/deliveries/dlv_nope/replay', t.admin)).status).toBe(404);
    // After an erasure a replay carries nothing personal.
    expect((await s.call('DELETE', `/api/v1/learners/${employeeLearnerId}`, t.admin)).status).toBe(204);
    expect((await s.call('POST', `/api/v1/hr-sync/deliveries/${completed.deliveryId}/replay`, t.admin)).status).toBe(
      202,
    );
    await rx.waitFor(() => rx.of('learner.completed').length === 3);
    expect(JSON.parse(rx.of('learner.completed')[2]!.body).data).toEqual({ id: employeeLearnerId, erased: true });
    const rotated = await s.call('POST', '/api/v1/hr-sync/rotate-signing-secret', t.admin);
    expect(rotated.body.signingSecret).toMatch(/^whsec_/);
    expect(rotated.body.previousSecretExpiresAt).toEqual(expect.any(String));
  });
});

describeEachStorage('HR outbound retries on the webhook schedule (fake clock)', (_get, kind) => {
  let s: TestServer;
  let rx: Awaited<ReturnType<typeof hrReceiver>>;
  const clock = new FixedClock(new Date('2026-06-01T08:00:00.000Z'));

  beforeAll(async () => {
    s = await startTestServer(kind, { clock, worker: {} });
    rx = await hrReceiver();
  });
  afterAll(async () => {
    await s?.close();
    await rx?.close();
  });

  it('fails at once, +5 min, +30 min, +2 h, +24 h; then HR deliveries stop with an alert until a PUT enables them', async () => {
    const t = await hrTenant(s, 'hr-retry', { modules: ['KM-01'], programme: 'SP-R' });
    const put = await s.call('PUT', '/api/v1/hr-sync', t.admin, { outboundUrl: rx.url });
    expect(put.status).toBe(200);
    rx.state.status = 500;
    const hr = await t.post({
      event: 'employee.enrolled',
      data: { ...employee(5, {}, idNumberFor(9303)), programmeCode: 'SP-R' },
    });
    const a = await s.call('POST', '/api/v1/assessments', t.admin, {
      learnerId: hr.body.learnerId,
      moduleCode: 'KM-01',
      assessmentType: 'formative',
      outcome: 'NYC',
      assessmentDate: '2026-06-01',
    });
    expect(a.status).toBe(201);
    const attempts = async () => (await s.call('GET', '/api/v1/hr-sync/deliveries?limit=10', t.admin)).body.data;
    const waitAttempts = async (n: number) => {
      const end = Date.now() + 8000;
      while ((await attempts()).length < n) {
        if (Date.now() > end) throw new Error(`expected ${n} attempts`);
        await new Promise((ok) => setTimeout(ok, 30));
      }
    };
    await waitAttempts(1);
    const steps = [5 * 60_000, 30 * 60_000, 2 * 3_600_000, 24 * 3_600_000];
    for (const [i, step] of steps.entries()) {
      clock.advance(step - 1000);
      await new Promise((ok) => setTimeout(ok, 200));
      expect(await attempts(), `attempt ${i + 2} must wait for its time`).toHaveLength(i + 1);
      clock.advance(1000);
      await waitAttempts(i + 2);
    }
    const log = await attempts();
    expect(log.map((x: { attempt: number }) => x.attempt)).toEqual([5, 4, 3, 2, 1]);
    expect(log.every((x: { statusCode: number }) => x.statusCode === 500)).toBe(true);
    const stopped = await s.call('GET', '/api/v1/hr-sync', t.admin);
    expect(stopped.body.outbound).toMatchObject({ enabled: false, disabledReason: 'delivery_failed' });
    if (s.storage.db) {
      const alerts = await s.storage.db.all<{ kind: string }>(`SELECT kind FROM tenant_alerts WHERE tenant_id = ?`, [
        t.tenantId,
      ]);
      expect(alerts.map((x) => x.kind)).toContain('hr_sync_outbound_disabled');
    }
    rx.state.status = 200;
    const before = rx.received.length;
    const again = await s.call('PUT', '/api/v1/hr-sync', t.admin, { enabled: true });
    expect(again.body.outbound).toMatchObject({ enabled: true, disabledReason: null });
    await rx.waitFor(() => rx.received.length > before);
    expect(rx.received.at(-1)!.headers['x-webhook-event']).toBe('learner.competency');
  });
});
