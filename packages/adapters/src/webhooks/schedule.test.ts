import { expect, it } from 'vitest';
import { RegisterLearner } from '@fundi/application/learners';
import {
  ClaimDeliveries,
  CreateWebhookSubscription,
  DispatchOutbox,
  EnableWebhookSubscription,
  RecordDeliveryOutcomes,
  ReplayDelivery,
  ReplayEventsSince,
  RequestReplay,
  RotateWebhookSecret,
  type OutgoingWebhook,
  type ReplaySincePayload,
} from '@fundi/application/webhooks';
import type { AttemptResult } from '@fundi/domain/webhooks';
import { idNumberFor } from '@fundi/domain/testing';
import { describeEachStorage } from '../testing/each-storage.js';
import { webhookWorld } from '../testing/webhook-world.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

/** A receiver that answers with whatever status the test sets, and remembers what it was sent. */
class FakeTransport {
  status = 500;
  sent: OutgoingWebhook[] = [];
  async send(w: OutgoingWebhook): Promise<AttemptResult> {
    this.sent.push(w);
    return { statusCode: this.status, latencyMs: 3, error: null, responseExcerpt: String(this.status) };
  }
}

describeEachStorage('retry schedule, disable, enable and replay (fixed clock)', (get) => {
  async function setup() {
    const { clock, all, deps, actor } = await webhookWorld(get());
    const transport = new FakeTransport();
    const owner = `w-${Math.random()}`;
    /** One worker round: fan out, claim what is due, send, record. Returns how many were sent. */
    const step = async () => {
      await new DispatchOutbox(deps).execute(500);
      const tasks = await new ClaimDeliveries(deps).execute(owner, 100, 30_000);
      const outcomes = [];
      for (const task of tasks)
        outcomes.push({ task, at: clock.now(), result: await transport.send({ ...task.webhook, timestamp: 0 }) });
      await new RecordDeliveryOutcomes(deps).execute(owner, outcomes);
      return tasks.filter((t) => t.tenantId === actor.tenantId).length;
    };
    const learner = (n: number) =>
      new RegisterLearner(all).execute(actor, { firstName: `L${n}`, lastName: 'Test', idNumber: idNumberFor(n) });
    const subscribe = () =>
      new CreateWebhookSubscription(deps).execute(actor, {
        url: 'https://hooks.example.com/in',
        events: ['learner.created'],
      });
    return { clock, deps, actor, transport, step, learner, subscribe };
  }

  it('attempts at once, +5 min, +30 min, +2 h, +24 h; the 5th failure disables with an audit entry and an alert', async () => {
    const { clock, deps, actor, transport, step, learner, subscribe } = await setup();
    const sub = await subscribe();
    await learner(0);
    expect(await step()).toBe(1);
    for (const delay of [5 * MIN, 30 * MIN, 2 * HOUR, 24 * HOUR]) {
      clock.advance(delay - 1);
      expect(await step(), `nothing due 1 ms before +${delay / MIN} min`).toBe(0);
      clock.advance(1);
      expect(await step(), `attempt due at +${delay / MIN} min`).toBe(1);
    }
    expect(new Set(transport.sent.map((w) => w.eventId)).size).toBe(1);
    const attempts = await deps.repos.webhookAttempts.list(actor.tenantId, sub.id, {
      kind: 'offset',
      offset: 0,
      limit: 10,
    });
    expect(attempts.items.map((a) => a.attempt)).toEqual([5, 4, 3, 2, 1]);
    expect(attempts.items[0]).toMatchObject({ statusCode: 500, responseExcerpt: '500', at: clock.now().toISOString() });
    expect(await deps.repos.webhookSubscriptions.findById(actor.tenantId, sub.id)).toMatchObject({
      enabled: false,
      disabledReason: 'delivery_failed',
    });
    const audit = await deps.repos.audit.list(actor.tenantId, { resourceId: sub.id, limit: 10 });
    expect(audit[0]).toMatchObject({
      action: 'webhook_subscription.disabled',
      actor: 'system',
      details: { reason: 'delivery_failed' },
    });
    expect(await deps.repos.tenantAlerts.list(actor.tenantId, 5)).toMatchObject([
      { kind: 'webhook_subscription_disabled' },
    ]);
    clock.advance(48 * HOUR);
    expect(await step()).toBe(0);
  });

  it('holds new events while disabled; enable delivers everything missed with the same event ids', async () => {
    const { clock, deps, actor, transport, step, learner, subscribe } = await setup();
    const sub = await subscribe();
    await learner(0);
    await step();
    for (const d of [5 * MIN, 30 * MIN, 2 * HOUR, 24 * HOUR]) {
      clock.advance(d);
      await step();
    }
    await learner(1);
    clock.advance(HOUR);
    expect(await step()).toBe(0);
    const missed = (await deps.repos.outbox.list(actor.tenantId, { types: ['learner.created'], limit: 10 })).map(
      (e) => e.id,
    );
    expect(missed).toHaveLength(2);
    transport.status = 200;
    transport.sent = [];
    const enabled = await new EnableWebhookSubscription(deps).execute(actor, sub.id);
    expect(enabled).toMatchObject({ enabled: true, disabledReason: null, requeued: 2 });
    expect(await step()).toBe(2);
    expect(transport.sent.map((w) => w.eventId).sort()).toEqual([...missed].sort());
    expect(await step()).toBe(0);
  });

  it('replays every event since a time, and one delivery, again with the same ids', async () => {
    const { clock, deps, actor, transport, step, learner, subscribe } = await setup();
    transport.status = 204;
    const sub = await subscribe();
    await learner(0);
    clock.advance(MIN);
    await learner(1);
    await step();
    expect(transport.sent).toHaveLength(2);
    const [second] = await deps.repos.outbox.list(actor.tenantId, {
      since: '2026-06-01T08:00:30.000Z',
      types: ['learner.created'],
      limit: 5,
    });
    transport.sent = [];
    const queued = await new RequestReplay(deps).execute(actor, sub.id, '2026-06-01T08:00:30.000Z');
    const [job] = await deps.uow.run((tx) =>
      tx.jobs.claimDue({
        owner: 'w',
        lane: 'short',
        kinds: ['webhooks.replay_since'],
        now: clock.now().toISOString(),
        leaseUntil: '2099-01-01T00:00:00.000Z',
        limit: 5,
        backgroundWaitMs: 0,
      }),
    );
    expect(job!.id).toBe(queued.jobId);
    expect(await new ReplayEventsSince(deps).execute(job!.payload as ReplaySincePayload)).toBe(1);
    expect(await step()).toBe(1);
    expect(transport.sent.map((w) => w.eventId)).toEqual([second!.id]);
    const attempts = await deps.repos.webhookAttempts.list(actor.tenantId, sub.id, {
      kind: 'offset',
      offset: 0,
      limit: 10,
    });
    const replayed = await new ReplayDelivery(deps).execute(actor, sub.id, attempts.items.at(-1)!.deliveryId);
    expect(replayed.eventId).toBe(attempts.items.at(-1)!.eventId);
    expect(await step()).toBe(1);
    expect(transport.sent.at(-1)!.eventId).toBe(replayed.eventId);
  });

  it('signs with the old secret beside the new one for 24 h after a rotation', async () => {
    const { clock, deps, actor, transport, step, learner, subscribe } = await setup();
    transport.status = 200;
    const sub = await subscribe();
    const rotated = await new RotateWebhookSecret(deps).execute(actor, sub.id, {});
    expect(rotated.secret).not.toBe(sub.secret);
    await learner(0);
    await step();
    expect(transport.sent.at(-1)!.secrets).toEqual([rotated.secret, sub.secret]);
    clock.advance(24 * HOUR);
    await learner(1);
    await step();
    expect(transport.sent.at(-1)!.secrets).toEqual([rotated.secret]);
  });
});
