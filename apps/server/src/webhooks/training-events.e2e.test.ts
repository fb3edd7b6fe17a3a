import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStorage, type Received, type TestReceiver } from '@fundi/adapters/testing';
import { STORAGE_ONLY } from '../capabilities/index.js';
import { eventDocsOf } from '../capabilities/declared.js';
import { startTestServer, type TestServer } from '@fundi/server/testing';
import { assessmentBody, enrolledLearner } from '../testing/training-fixtures.js';

const WEBHOOK_EVENTS = eventDocsOf(STORAGE_ONLY());

const TRAINING_EVENTS = [
  'enrolment.status_changed',
  'assessment.recorded',
  'assessment.completed',
  'moderation.completed',
  'moderation.sample_drawn',
];

/**
 * The training record's producers reach subscribers through the outbox, the worker and a real receiver: each
 * event once per subscribed name, with the data the producers write, in the webhook envelope.
 */
describeEachStorage(
  'training-record events reach subscribers end to end (server + worker)',
  (_get, kind) => {
    let s: TestServer;
    let all: TestReceiver;
    let completedOnly: TestReceiver;
    let tenantId: string;
    let key: string;
    let secrets: { all: string; completedOnly: string };

    beforeAll(async () => {
      s = await startTestServer(kind, { worker: {} });
      [all, completedOnly] = await Promise.all([s.receiver(), s.receiver()]);
      const t = await s.tenant('train');
      tenantId = t.id;
      key = t.key;
      const subscribe = async (url: string, events: string[]) => {
        const r = await s.call('POST', '/api/v1/webhook-subscriptions', t.key, { url, events });
        expect(r.status).toBe(201);
        return r.body.secret as string;
      };
      secrets = {
        all: await subscribe(all.url, TRAINING_EVENTS),
        completedOnly: await subscribe(completedOnly.url, ['assessment.completed']),
      };
    });
    afterAll(async () => {
      await s?.close();
      await Promise.all([all?.close(), completedOnly?.close()]);
    });

    const verified = (r: Received, secret: string) =>
      new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as Record<string, unknown>;

    it("delivers exactly the subscribed events with the producers' data, signed", async () => {
      const moderator = await s.key('train', 'moderator');
      const { learnerId, enrolment } = await enrolledLearner(s, key, '/api/v1', {
        code: 'EV-1',
        idNumber: '9001049818080',
        modules: ['M1'],
        startDate: '2026-01-10',
      });
      const started = await s.call('PATCH', `/api/v1/enrolments/${enrolment.id}/status`, key, {
        status: 'in_progress',
        reason: 'classes began',
        effectiveDate: '2026-01-12',
      });
      expect(started.status).toBe(200);
      const assessed = await s.call(
        'POST',
        '/api/v1/assessments',
        key,
        assessmentBody(learnerId, 'M1', { assessmentDate: '2026-02-01' }),
      );
      expect(assessed.status).toBe(201);
      const moderated = await s.call('POST', `/api/v1/assessments/${assessed.body.id}/moderation`, moderator.key, {
        decision: 'overturned',
        notes: 'evidence incomplete',
      });
      expect(moderated.status).toBe(201);
      const drawn = await s.call('POST', '/api/v1/moderation/samples', moderator.key, {
        programmeCode: 'EV-1',
        percent: 100,
        dueBy: '2099-12-31',
      });
      expect(drawn.status, JSON.stringify(drawn.body)).toBe(201);

      await all.waitFor(5, 5000);
      await completedOnly.waitFor(1, 5000);
      await new Promise((ok) => setTimeout(ok, 300));
      expect(all.received.map((r) => r.headers['x-webhook-event']).sort()).toEqual([...TRAINING_EVENTS].sort());
      expect(completedOnly.received.map((r) => r.headers['x-webhook-event'])).toEqual(['assessment.completed']);

      const byType: Record<string, Record<string, unknown>> = Object.fromEntries(
        all.received.map((r) => [r.headers['x-webhook-event'], verified(r, secrets.all)]),
      );
      for (const [type, p] of Object.entries(byType)) {
        expect(p).toMatchObject({ type, tenantId, id: expect.stringMatching(/^evt_/), timestamp: expect.any(String) });
        // The OpenAPI `webhooks` section describes exactly what was sent: parsing drops or refuses anything else.
        expect(WEBHOOK_EVENTS[type]!.data.parse(p.data), type).toEqual(p.data);
      }
      expect(byType['enrolment.status_changed']!.data).toEqual({
        enrolmentId: enrolment.id,
        learnerId,
        programmeCode: 'EV-1',
        from: 'enrolled',
        to: 'in_progress',
        reason: 'classes began',
        effectiveDate: '2026-01-12',
      });
      const assessmentData = {
        assessmentId: assessed.body.id,
        learnerId,
        enrolmentId: enrolment.id,
        moduleCode: 'M1',
        outcome: 'C',
        assessmentType: 'summative',
        assessmentDate: '2026-02-01',
      };
      expect(byType['assessment.recorded']!.data).toEqual(assessmentData);
      expect(byType['assessment.completed']!.data).toEqual(assessmentData);
      expect(byType['assessment.recorded']!.id).not.toBe(byType['assessment.completed']!.id);
      expect(byType['moderation.completed']!.data).toEqual({
        assessmentId: assessed.body.id,
        learnerId,
        enrolmentId: enrolment.id,
        moduleCode: 'M1',
        decision: 'overturned',
        notes: 'evidence incomplete',
        moderatorEmail: null,
        moderatedBy: { type: 'api_key', id: moderator.id, name: 'moderator key' },
        effectiveOutcome: 'NYC',
      });
      expect(byType['moderation.sample_drawn']!.data).toEqual({
        sampleId: drawn.body.id,
        programmeId: drawn.body.programmeId,
        programmeCode: 'EV-1',
        from: null,
        to: null,
        percent: 100,
        population: 1,
        count: 1,
        dueBy: '2099-12-31',
        drawnBy: { type: 'api_key', id: moderator.id, name: 'moderator key' },
      });

      const [only] = completedOnly.received;
      const p = verified(only!, secrets.completedOnly);
      expect(p).toMatchObject({ type: 'assessment.completed', tenantId, data: assessmentData });
      expect(p.id).toBe(byType['assessment.completed']!.id);
    });
  },
  ['sqlite', 'postgres'],
);
