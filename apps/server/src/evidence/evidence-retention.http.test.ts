import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCasesOf } from '@fundi/adapters';
import { evidenceCapability, tenants } from '../capabilities/index.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { describeEvidenceSuite, enrolledLearner, filesUnder, multipart, PDF } from './evidence-http-fixture.js';

/** Evidence deletion and retention, usage and storage quota, and erasure with the learner. */
describeEvidenceSuite('evidence over HTTP: deletion, retention and quota', (world) => {
  it('deletes, restores within 30 days, and purges after 30 days', async () => {
    const { s, admin, learnerId, clock, upload } = world();
    const made = await upload(
      admin,
      '/api/v1',
      { learnerId, moduleId: 'KM-01', evidenceType: 'other' },
      { name: 'gone.pdf', data: PDF },
    );
    const id = made.body.id as string;
    // Evidence that is not deleted exists: restoring it is a conflict naming its state, in both forms.
    const live = await s.call('POST', `/api/v1/evidence/${id}/restore`, admin);
    expect(live.status).toBe(409);
    expect(live.body.error).toMatchObject({ code: 'conflict', currentStatus: 'submitted', deletedAt: null });
    expect(live.body.error.message).toContain('not deleted');
    const liveB = await s.call('POST', `/api/v1/tenants/evi/evidence/${id}/restore`, admin);
    expect(liveB.status).toBe(409);
    expect(liveB.body.error).toMatchObject({ code: 'CONFLICT', currentStatus: 'submitted' });
    expect((await s.call('POST', `/api/v1/evidence/evd_00000000000000000000000000/restore`, admin)).status).toBe(404);
    expect((await s.call('DELETE', `/api/v1/evidence/${id}`, admin)).status).toBe(204);
    expect((await s.call('GET', `/api/v1/evidence/${id}`, admin)).status).toBe(404);
    expect((await s.call('POST', `/api/v1/evidence/${id}/restore`, admin)).body.deletedAt).toBeNull();
    expect((await s.call('GET', `/api/v1/evidence/${id}`, admin)).status).toBe(200);
    expect((await s.call('DELETE', `/api/v1/evidence/${id}`, admin)).status).toBe(204);
    const evidence = useCasesOf(s.container, evidenceCapability).evidence;
    clock.advance(29 * 86_400_000);
    expect(await evidence.purgeDeleted.execute()).toBe(0);
    clock.advance(2 * 86_400_000);
    try {
      expect((await s.call('POST', `/api/v1/evidence/${id}/restore`, admin)).status).toBe(409);
      expect(await evidence.purgeDeleted.execute()).toBeGreaterThanOrEqual(1);
      expect((await s.call('POST', `/api/v1/evidence/${id}/restore`, admin)).status).toBe(404);
    } finally {
      clock.advance(-31 * 86_400_000);
    }
  });

  it("purges evidence past the tenant's retention after the enrolment's completion, keeping the audit", async () => {
    const { s, admin, clock, upload } = world();
    const t = await enrolledLearner(s, admin, '/api/v1', '8501015800088');
    for (const code of ['KM-01', 'PM-01']) {
      expect(
        (
          await s.call('POST', '/api/v1/assessments', admin, {
            learnerId: t.learnerId,
            moduleCode: code,
            assessmentType: 'summative',
            outcome: 'C',
            assessmentDate: t.enrolment.startDate,
            enrolmentId: t.enrolment.id,
          })
        ).status,
      ).toBe(201);
    }
    const made = await upload(
      admin,
      '/api/v1',
      { learnerId: t.learnerId, moduleId: 'KM-01', evidenceType: 'portfolio', enrolmentId: t.enrolment.id },
      { name: 'kept.pdf', data: PDF },
    );
    expect(made.status).toBe(201);
    const today = clock.now().toISOString().slice(0, 10);
    expect(
      (await s.call('PATCH', `/api/v1/enrolments/${t.enrolment.id}/status`, admin, { status: 'in_progress' })).status,
    ).toBe(200);
    expect(
      (
        await s.call('PATCH', `/api/v1/enrolments/${t.enrolment.id}/status`, admin, {
          status: 'completed',
          effectiveDate: today,
        })
      ).status,
    ).toBe(200);
    const evidence = useCasesOf(s.container, evidenceCapability).evidence;
    await evidence.setRetentionYears.execute('evi', 2);
    expect(await evidence.retentionYears.execute((await s.call('GET', '/api/v1/me', admin)).body.tenant.id)).toBe(2);
    clock.advance(365 * 86_400_000);
    try {
      expect(await evidence.purgeRetained.execute()).toBe(0);
      clock.advance(366 * 86_400_000);
      expect(await evidence.purgeRetained.execute()).toBe(1);
      expect((await s.call('GET', `/api/v1/evidence/${made.body.id}`, admin)).status).toBe(404);
    } finally {
      clock.advance(-731 * 86_400_000);
    }
    await expect(evidence.setRetentionYears.execute('evi', 0)).rejects.toMatchObject({ kind: 'invalid' });
  });

  it("usage counts the requests of all the tenant's keys today; crossing 80% of the quota raises one warning event", async () => {
    const { s, other, upload } = world();
    const t = await s.tenant('evi-usage');
    const second = await s.key('evi-usage', 'admin');
    const first = (await s.call('GET', '/api/v1/usage', t.key)).body;
    expect(first.requestsToday).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < 5; i++) await s.call('GET', '/api/v1/learners', t.key);
    await s.call('GET', '/api/v1/learners', second.key);
    await s.call('GET', '/api/v1/learners', other);
    const again = await s.call('GET', '/api/v1/tenants/evi-usage/usage', second.key);
    // Five and one learner lists, and this usage call itself; another tenant's request is not counted.
    expect(again.body.requestsToday).toBe(first.requestsToday + 7);

    const { learnerId } = await enrolledLearner(s, t.key, '/api/v1', '8001015009087');
    await useCasesOf(s.container, tenants).reconfigureTenant.execute('evi-usage', {
      overrides: { storageBytes: Math.ceil(PDF.length / 0.85) },
    });
    const up = await upload(
      t.key,
      '/api/v1',
      { learnerId, moduleId: 'KM-01', evidenceType: 'other' },
      { name: 'p.pdf', data: PDF },
    );
    expect(up.status).toBe(201);
    const events = await s.storage.db!.all<{ type: string; data: string }>(
      `SELECT type, data FROM outbox_events WHERE tenant_id = ? AND type = 'tenant.quota_warning'`,
      [t.id],
    );
    expect(events.length).toBe(1);
    const data = typeof events[0]!.data === 'string' ? JSON.parse(events[0]!.data) : events[0]!.data;
    expect(data).toMatchObject({ percent: 80, bytes: PDF.length });
  });

  it('refuses what would pass the storage quota and keeps nothing of it', async () => {
    const { s, other, upload } = world();
    await useCasesOf(s.container, tenants).reconfigureTenant.execute('evi-other', {
      overrides: { storageBytes: 1000 },
    });
    const t = await enrolledLearner(s, other, '/api/v1');
    const r = await upload(
      other,
      '/api/v1',
      { learnerId: t.learnerId, moduleId: 'KM-01', evidenceType: 'other' },
      { name: 'big.pdf', data: PDF },
    );
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('storage_quota_exceeded');
    const usage = await s.call('GET', '/api/v1/usage', other);
    expect(usage.body).toMatchObject({ bytesUsed: 0, quotaBytes: 1000, files: 0 });
    const grant = await s.call('POST', '/api/v1/evidence/upload', other, {
      learnerId: t.learnerId,
      moduleId: 'KM-01',
      evidenceType: 'other',
      filename: 'a.pdf',
      size: 5000,
    });
    expect(grant.body.error.code).toBe('storage_quota_exceeded');
  });
});

describe('evidence and learner erasure', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer('sqlite', { worker: {} });
  });
  afterAll(() => s?.close());

  it('erasing a learner removes their evidence bytes and records, keeping the audit facts', async () => {
    const key = (await s.tenant('evi-erase')).key;
    const { learnerId } = await enrolledLearner(s, key, '/api/v1');
    const m = multipart({ learnerId, moduleId: 'KM-01', evidenceType: 'portfolio' }, { name: 'mine.pdf', data: PDF });
    const made = await s.call('POST', '/api/v1/evidence', key, m.body, { 'content-type': m.type });
    expect(made.status).toBe(201);
    expect(filesUnder(s.filesDir!).length).toBe(1);
    expect((await s.call('DELETE', `/api/v1/learners/${learnerId}`, key)).status).toBe(204);
    const deadline = Date.now() + 5000;
    const gone = async () =>
      filesUnder(s.filesDir!).length === 0 &&
      (await s.call('GET', `/api/v1/evidence/${made.body.id}`, key)).status === 404;
    while (!(await gone()) && Date.now() < deadline) await new Promise((ok) => setTimeout(ok, 20));
    expect(filesUnder(s.filesDir!)).toEqual([]);
    expect((await s.call('GET', `/api/v1/evidence/${made.body.id}`, key)).status).toBe(404);
    const audit = await s.storage.db!.all<{ action: string }>(`SELECT action FROM audit_log WHERE resource_id = ?`, [
      made.body.id,
    ]);
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['evidence.uploaded', 'evidence.erased']));
  });
});
