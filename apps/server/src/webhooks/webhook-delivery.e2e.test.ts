import { Webhook } from 'standardwebhooks';
import { anIdNumber } from '@fundi/domain/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStorage, type TestReceiver } from '@fundi/adapters/testing';
import { STORAGE_ONLY } from '../capabilities/index.js';
import { eventDocsOf } from '../capabilities/declared.js';
import { startTestServer, type CallResult, type TestServer } from '@fundi/server/testing';

const WEBHOOK_EVENTS = eventDocsOf(STORAGE_ONLY());

/** The real server and its in-process worker deliver events to a receiver on 127.0.0.1. */
describeEachStorage(
  'events reach subscribers end to end (server + worker)',
  (_get, kind) => {
    let s: TestServer;
    let rx: TestReceiver;
    let key: string;
    let tenantId: string;
    let sub: { id: string; secret: string };

    beforeAll(async () => {
      s = await startTestServer(kind, { worker: {} });
      rx = await s.receiver();
      ({ key, id: tenantId } = await s.tenant('acme'));
      const created = await s.call('POST', '/api/v1/webhook-subscriptions', key, {
        url: rx.url,
        events: [
          'learner.created',
          'learner.updated',
          'assessment.recorded',
          'assessment.completed',
          'enrolment.status_changed',
        ],
      });
      expect(created.status).toBe(201);
      sub = created.body;
    });
    afterAll(async () => {
      await s?.close();
      await rx?.close();
    });

    const eventsOfType = (type: string) => rx.received.filter((r) => r.headers['x-webhook-event'] === type);

    it('delivers learner.created and learner.updated, signed and verifiable by the standardwebhooks library', async () => {
      const learner = await s.call('POST', '/api/v1/learners', key, {
        firstName: 'Thandi',
        lastName: 'Nkosi',
        idNumber: '9001049818080',
      });
      expect(learner.status).toBe(201);
      await s.call('PATCH', `/api/v1/learners/${learner.body.id}`, key, { lastName: 'Dlamini' });
      await rx.waitFor(2, 5000);
      const [created] = eventsOfType('learner.created');
      const payload = new Webhook(sub.secret).verify(
        created!.body,
        created!.headers as Record<string, string>,
      ) as Record<string, unknown>;
      expect(payload).toMatchObject({
        type: 'learner.created',
        tenantId,
        data: { id: learner.body.id, idNumber: '9001049818080' },
      });
      expect(created!.headers['x-webhook-id']).toBe(payload.id);
      const [updated] = eventsOfType('learner.updated');
      expect(JSON.parse(updated!.body).data).toMatchObject({ id: learner.body.id, changes: { lastName: 'Dlamini' } });
      // The OpenAPI `webhooks` section describes exactly what was sent: parsing drops or refuses anything else.
      for (const [type, r] of [
        ['learner.created', created!],
        ['learner.updated', updated!],
      ] as const) {
        const { data } = JSON.parse(r.body);
        expect(WEBHOOK_EVENTS[type]!.data.parse(data), type).toEqual(data);
      }
    });

    it("fans other capabilities' outbox rows out by exact type: each name once per subscriber", async () => {
      const at = new Date().toISOString();
      await s.storage.uow.run(async (tx) => {
        // Each with the data its producer writes: every delivered payload is checked against the document.
        const assessment = {
          assessmentId: 'asm_1',
          learnerId: 'lrn_1',
          enrolmentId: 'enr_1',
          moduleCode: 'KM-01',
          outcome: 'C',
          assessmentType: 'summative',
          assessmentDate: '2026-03-02',
        };
        const data: Record<string, Record<string, unknown>> = {
          'assessment.recorded': assessment,
          'assessment.completed': assessment,
          'enrolment.status_changed': {
            enrolmentId: 'enr_1',
            learnerId: 'lrn_1',
            programmeCode: 'P-1',
            from: 'enrolled',
            to: 'in_progress',
            reason: null,
            effectiveDate: '2026-03-02',
          },
          'evidence.uploaded': { evidenceId: 'evd_1' },
        };
        for (const [type, d] of Object.entries(data)) {
          await tx.outbox.add({
            id: `evt_e2e_${kind}_${type.replace(/\W/g, '_')}`,
            tenantId,
            type,
            occurredAt: at,
            data: d,
          });
        }
      });
      await rx.waitFor(5, 5000);
      for (const type of ['assessment.recorded', 'assessment.completed', 'enrolment.status_changed'])
        expect(eventsOfType(type)).toHaveLength(1);
      await new Promise((ok) => setTimeout(ok, 200));
      expect(eventsOfType('evidence.uploaded')).toHaveLength(0);
    });

    it('sends a ping on test, and logs every attempt', async () => {
      const ping = await s.call('POST', `/api/v1/webhook-subscriptions/${sub.id}/test`, key);
      expect(ping.status).toBe(202);
      await rx.waitFor(6, 5000);
      expect(eventsOfType('ping').map((r) => r.headers['webhook-id'])).toEqual([ping.body.eventId]);
      let log: CallResult | undefined;
      for (let i = 0; i < 50; i++) {
        log = await s.call('GET', `/v1/tenants/acme/webhook-subscriptions/${sub.id}/deliveries?limit=100`, key);
        if (log.body.pagination.total >= 6) break;
        await new Promise((ok) => setTimeout(ok, 50));
      }
      expect(log!.body.pagination.total).toBe(6);
      expect(log!.body.data[0]).toMatchObject({
        eventId: expect.any(String),
        attempt: 1,
        statusCode: 200,
        error: null,
        responseExcerpt: 'ok',
        latencyMs: expect.any(Number),
      });
    });

    it('retries a failed delivery and a replay sends it again with the same event id', async () => {
      rx.setMode({ status: 500 });
      const learner = await s.call('POST', '/api/v1/learners', key, {
        firstName: 'Sipho',
        lastName: 'Zulu',
        idNumber: anIdNumber({ yy: 85, mm: 1, dd: 1, sequence: 5800 }),
      });
      expect(learner.status).toBe(201);
      const before = rx.received.length;
      for (let i = 0; i < 100 && rx.received.length === before; i++) await new Promise((ok) => setTimeout(ok, 20));
      rx.setMode({ status: 200 });
      let failed: { deliveryId: string; eventId: string; statusCode: number } | undefined;
      for (let i = 0; i < 50 && !failed; i++) {
        const log = await s.call('GET', `/api/v1/webhook-subscriptions/${sub.id}/deliveries?limit=100`, key);
        failed = log.body.data.find((a: { statusCode: number }) => a.statusCode === 500);
        if (!failed) await new Promise((ok) => setTimeout(ok, 20));
      }
      expect(failed).toMatchObject({ eventType: 'learner.created', attempt: 1, responseExcerpt: 'error 500' });
      const replay = await s.call(
        'POST',
        `/api/v1/webhook-subscriptions/${sub.id}/deliveries/${failed!.deliveryId}/replay`,
        key,
      );
      expect(replay.status).toBe(202);
      expect(replay.body.eventId).toBe(failed!.eventId);
      for (
        let i = 0;
        i < 100 && !rx.received.some((r, j) => j > before && r.headers['webhook-id'] === failed!.eventId);
        i++
      )
        await new Promise((ok) => setTimeout(ok, 20));
      const copies = rx.received.filter((r) => r.headers['webhook-id'] === failed!.eventId);
      expect(copies.length).toBe(2);
      expect(JSON.parse(copies[1]!.body).data.id).toBe(learner.body.id);
    });
  },
  ['sqlite', 'postgres'],
);
