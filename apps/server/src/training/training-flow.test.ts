import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '@fundi/testing';
import { postgresAvailable } from '@fundi/adapters/testing';
import { startTestServer, type TestServer } from '@fundi/server/testing';
import { assessmentBody, enrolledLearner } from '../testing/training-fixtures.js';

const pgUp = await postgresAvailable();

for (const kind of ['sqlite', 'postgres'] as const) {
  const d = kind === 'postgres' && !pgUp ? describe.skip : describe;
  d(`training record end to end [${kind}]`, () => {
    let s: TestServer;
    let admin: string;
    let moderator: string;
    let tenantId: string;
    beforeAll(async () => {
      s = await startTestServer(kind, { clock: new FixedClock(new Date('2026-06-01T08:00:00.000Z')) });
      const t = await s.tenant('flow');
      admin = t.key;
      tenantId = t.id;
      moderator = (await s.key('flow', 'moderator')).key;
    });
    afterAll(async () => s.close());

    it('sets up, enrols, assesses, moderates and completes, with audit and outbox', async () => {
      const { learnerId, enrolment } = await enrolledLearner(s, admin, '/api/v1', {
        code: 'FLOW-1',
        idNumber: '9001049818080',
        modules: ['M1', 'M2'],
      });
      const started = await s.call('PATCH', `/v1/tenants/flow/enrolments/${enrolment.id}/status`, admin, {
        status: 'in_progress',
        reason: 'classes began',
      });
      expect(started.status).toBe(200);
      const m1 = await s.call('POST', '/api/v1/assessments', admin, assessmentBody(learnerId, 'M1'));
      expect(m1.status).toBe(201);
      const early = await s.call('PATCH', `/api/v1/enrolments/${enrolment.id}/status`, admin, { status: 'completed' });
      expect(early.status).toBe(409);
      expect(early.body.error.missingModules).toEqual(['M2']);
      const m2 = await s.call(
        'POST',
        '/api/v1/tenants/flow/assessments',
        admin,
        assessmentBody(learnerId, 'M2', { assessorId: 'sipho@provider.co.za' }),
      );
      expect(m2.status).toBe(201);

      const overturned = await s.call('POST', `/api/v1/assessments/${m1.body.id}/moderation`, moderator, {
        decision: 'overturned',
        notes: 'evidence incomplete',
      });
      expect(overturned.status).toBe(201);
      expect(overturned.body).toMatchObject({ decision: 'overturned', originalOutcome: 'C', effectiveOutcome: 'NYC' });
      const afterModeration = await s.call('GET', `/api/v1/enrolments/${enrolment.id}`, admin);
      expect(afterModeration.body.progress).toMatchObject({ competent: 1, total: 2 });
      expect(afterModeration.body.progress.modules[0]).toMatchObject({
        code: 'M1',
        latestOutcome: 'NYC',
        moderated: true,
      });
      const refused = await s.call('PATCH', `/api/v1/enrolments/${enrolment.id}/status`, admin, {
        status: 'completed',
      });
      expect(refused.body.error.missingModules).toEqual(['M1']);

      const reassessed = await s.call(
        'POST',
        '/api/v1/assessments',
        admin,
        assessmentBody(learnerId, 'M1', { assessmentDate: '2026-04-01' }),
      );
      expect(reassessed.status).toBe(201);
      const done = await s.call('PATCH', `/v1/tenants/flow/enrolments/${enrolment.id}/status`, admin, {
        status: 'completed',
        effectiveDate: '2026-05-31',
      });
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({
        status: 'completed',
        achievementDate: '2026-05-31',
        progress: { competent: 2, total: 2 },
      });

      const history = await s.call('GET', `/api/v1/enrolments/${enrolment.id}/history`, admin);
      expect(history.body.data.map((c: { to: string }) => c.to)).toEqual(['enrolled', 'in_progress', 'completed']);
      const repos = s.storage.repos;
      const events = await repos.outbox.list(tenantId, { limit: 100 });
      // Internal events (the security alert of the keys made for the test) are not the training record's.
      const internal = new Set(['security.api_key_changed']);
      expect(events.map((e) => e.type).filter((t) => !t.startsWith('learner.') && !internal.has(t))).toEqual([
        'enrolment.status_changed',
        'assessment.recorded',
        'assessment.completed',
        'assessment.recorded',
        'assessment.completed',
        'moderation.completed',
        'assessment.recorded',
        'assessment.completed',
        'enrolment.status_changed',
        // Internal: the completion with its certificate number, for the capabilities that react to it.
        'enrolment.completed',
      ]);
      expect(events.findLast((e) => e.type === 'enrolment.status_changed')!.data).toMatchObject({
        enrolmentId: enrolment.id,
        from: 'in_progress',
        to: 'completed',
        effectiveDate: '2026-05-31',
      });
      const audit = await repos.audit.list(tenantId, { limit: 100 });
      expect(audit.map((a) => a.action)).toEqual(
        expect.arrayContaining([
          'programme.created',
          'enrolment.created',
          'enrolment.status_changed',
          'assessment.recorded',
          'moderation.completed',
        ]),
      );
    });
  });
}
