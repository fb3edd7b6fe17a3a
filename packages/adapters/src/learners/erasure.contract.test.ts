import { expect, it } from 'vitest';
import { newId, type DomainEvent } from '@fundi/domain';
import type { AttemptOutcome, AttemptSnapshot, WebhookSubscriptionSnapshot } from '@fundi/domain/webhooks';
import { describeEachStorage } from '../testing/each-storage.js';
import { aDelivery, anEvent, aSubscription, T0 } from '../webhooks/webhook-fixtures.js';

const ERASED = (id: string) => ({ id, erased: true });
// The events and subscriptions of these cases: a learner's data, and both learner event types.
const NOMVULA = { id: 'lrn_x', firstName: 'Nomvula' };
const LEARNER_EVENTS: Partial<WebhookSubscriptionSnapshot> = { events: ['learner.created', 'learner.updated'] };

const anAttempt = (e: DomainEvent, subscriptionId: string, responseExcerpt: string | null): AttemptSnapshot => ({
  id: newId('wha'),
  deliveryId: newId('dlv'),
  tenantId: e.tenantId,
  subscriptionId,
  eventId: e.id,
  eventType: e.type,
  attempt: 1,
  at: T0,
  statusCode: 200,
  latencyMs: 5,
  error: null,
  responseExcerpt,
});

/** Erasure as the outbox and the attempt log see it: by subject and by event, within one tenant. */
describeEachStorage('Outbox and attempt log erasure contract', (get) => {
  it("redacts the data of the subject's events only, keeps them and their subject, and is idempotent", async () => {
    const { uow, repos } = get();
    const t = newId('ten');
    const other = newId('ten');
    const created = anEvent(t, {
      subjectId: 'lrn_a',
      data: { id: 'lrn_a', firstName: 'Nomvula', idNumber: '9001049818080' },
    });
    const updated = anEvent(t, {
      type: 'learner.updated',
      subjectId: 'lrn_a',
      data: { id: 'lrn_a', changes: { mobile: '+27821112233' } },
    });
    const training = anEvent(t, { type: 'assessment.recorded', data: { assessmentId: 'asm_1', learnerId: 'lrn_a' } });
    const neighbour = anEvent(t, { subjectId: 'lrn_b', data: { id: 'lrn_b', firstName: 'Sipho' } });
    const sameIdElsewhere = anEvent(other, { subjectId: 'lrn_a', data: { id: 'lrn_a', firstName: 'Kept' } });
    await uow.run(async (tx) => {
      for (const e of [created, updated, training, neighbour, sameIdElsewhere]) await tx.outbox.add(e);
    });
    await expect(repos.outbox.list(t, { limit: 10 })).resolves.toEqual([created, updated, training, neighbour]);

    await expect(uow.run((tx) => tx.outbox.redactSubject(t, 'lrn_a', ERASED('lrn_a')))).resolves.toEqual([
      created.id,
      updated.id,
    ]);
    await expect(repos.outbox.list(t, { limit: 10 })).resolves.toEqual([
      { ...created, data: ERASED('lrn_a') },
      { ...updated, data: ERASED('lrn_a') },
      training,
      neighbour,
    ]);
    await expect(repos.outboxFeed.findById(t, updated.id)).resolves.toMatchObject({ data: ERASED('lrn_a') });
    await expect(repos.outbox.list(other, { limit: 10 })).resolves.toEqual([sameIdElsewhere]);
    await expect(uow.run((tx) => tx.outbox.redactSubject(t, 'lrn_a', ERASED('lrn_a')))).resolves.toEqual([
      created.id,
      updated.id,
    ]);
    await expect(uow.run((tx) => tx.outbox.redactSubject(t, 'lrn_none', ERASED('lrn_none')))).resolves.toEqual([]);
  });

  it('a delivery claimed after the redaction carries the redacted data', async () => {
    const { uow } = get();
    const t = newId('ten');
    const s = aSubscription(t, LEARNER_EVENTS);
    const e = anEvent(t, { subjectId: 'lrn_c', data: { id: 'lrn_c', firstName: 'Nomvula' } });
    await uow.run(async (tx) => {
      await tx.webhookSubscriptions.insert(s);
      await tx.outbox.add(e);
      await tx.webhookDeliveries.insertMany([aDelivery(e, s)]);
      await tx.outbox.redactSubject(t, 'lrn_c', ERASED('lrn_c'));
    });
    const claimed = await uow.run((tx) =>
      tx.webhookDeliveries.claimDue(`w_${t}`, '2026-06-01T08:00:01.000Z', '2026-06-01T08:01:00.000Z', 1000),
    );
    expect(claimed.find((c) => c.event.id === e.id)?.event.data).toEqual(ERASED('lrn_c'));
  });

  it('forgets the responses to the given events of the tenant, keeping the attempts', async () => {
    const { uow, repos } = get();
    const t = newId('ten');
    const s = aSubscription(t, LEARNER_EVENTS);
    const [a, b] = [anEvent(t, { data: NOMVULA }), anEvent(t, { data: NOMVULA })];
    const echoed = anAttempt(a!, s.id, 'received Nomvula');
    const silent = anAttempt(a!, s.id, null);
    const kept = anAttempt(b!, s.id, 'ok');
    const otherTenant = anAttempt({ ...a!, tenantId: newId('ten') }, s.id, 'theirs');
    // Attempts are written with their delivery's outcome; these deliveries' leases are not held, so only the log changes.
    await uow.run((tx) => tx.webhookDeliveries.saveOutcomes('nobody', [echoed, silent, kept, otherTenant].map(logged)));

    await expect(uow.run((tx) => tx.webhookAttempts.forgetResponses(t, [a!.id]))).resolves.toBe(1);
    const log = await repos.webhookAttempts.list(t, s.id, { kind: 'offset', offset: 0, limit: 10 });
    expect(log.items).toHaveLength(3);
    expect(log.items.find((x) => x.id === echoed.id)).toEqual({ ...echoed, responseExcerpt: null });
    expect(log.items.find((x) => x.id === kept.id)).toEqual(kept);
    const theirs = await repos.webhookAttempts.list(otherTenant.tenantId, s.id, {
      kind: 'offset',
      offset: 0,
      limit: 10,
    });
    expect(theirs.items).toEqual([otherTenant]);
    await expect(uow.run((tx) => tx.webhookAttempts.forgetResponses(t, []))).resolves.toBe(0);
  });
});

function logged(attempt: AttemptSnapshot): AttemptOutcome {
  return {
    attempt,
    change: {
      status: 'delivered',
      attempts: 1,
      nextAttemptAt: null,
      lastStatusCode: attempt.statusCode,
      deliveredAt: attempt.at,
    },
  };
}
