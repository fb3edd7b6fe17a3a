import { expect, it } from 'vitest';
import { RegisterLearner } from '@fundi/application/learners';
import {
  ClaimDeliveries,
  CreateWebhookSubscription,
  DispatchOutbox,
  RecordDeliveryOutcomes,
  UpdateWebhookSubscription,
} from '@fundi/application/webhooks';
import { idNumberFor } from '@fundi/domain/testing';
import { describeEachStorage } from '../testing/each-storage.js';
import { webhookWorld } from '../testing/webhook-world.js';

const LEASE_MS = 30_000;

describeEachStorage('fan-out hands its first deliveries to its own worker, leased', (get) => {
  async function setup() {
    const { clock, all, deps, actor } = await webhookWorld(get());
    const subscribe = (path: string) =>
      new CreateWebhookSubscription(deps).execute(actor, {
        url: `https://hooks.example.com/${path}`,
        events: ['learner.created'],
      });
    const learner = (n: number) =>
      new RegisterLearner(all).execute(actor, { firstName: `L${n}`, lastName: 'Test', idNumber: idNumberFor(n) });
    // Drains whatever earlier tests of this storage left in the outbox, so each test sees only its own events.
    await new DispatchOutbox(deps).execute(10_000);
    /** Another worker's claim, of this test's tenant only (the storage is shared by the tests of this file). */
    const claim = async (owner: string) =>
      (await new ClaimDeliveries(deps).execute(owner, 100, LEASE_MS)).filter((t) => t.tenantId === actor.tenantId);
    return { clock, deps, actor, subscribe, learner, claim };
  }

  it('leases up to the room to the caller and returns them ready to send; the rest stay for claims', async () => {
    const { clock, deps, actor, subscribe, learner, claim } = await setup();
    const on = await subscribe('on');
    const off = await subscribe('off');
    await new UpdateWebhookSubscription(deps).execute(actor, off.id, { enabled: false });
    for (const n of [1, 2, 3]) await learner(n);

    const { taken, tasks } = await new DispatchOutbox(deps).execute(500, {
      owner: 'w1',
      leaseMs: LEASE_MS,
      room: 2,
    });
    expect(taken).toBe(3);
    expect(tasks).toHaveLength(2);
    for (const t of tasks) {
      expect(t).toMatchObject({ tenantId: actor.tenantId, subscriptionId: on.id, attempt: 1 });
      expect(t.webhook).toMatchObject({ url: 'https://hooks.example.com/on', eventType: 'learner.created' });
      expect(t.webhook.secrets).toEqual([on.secret]);
      // A learner.created event is taken without its data (nobody else reads it); the handed body has it whole.
      const body = JSON.parse(t.webhook.body);
      expect(body).toMatchObject({ id: t.webhook.eventId, type: 'learner.created', tenantId: actor.tenantId });
      expect(body.data).toMatchObject({ lastName: 'Test', firstName: expect.stringMatching(/^L[12]$/) });
      const stored = await deps.repos.webhookDeliveries.findById(actor.tenantId, on.id, t.deliveryId);
      expect(stored).toMatchObject({
        status: 'pending',
        leaseOwner: 'w1',
        leaseUntil: new Date(clock.now().getTime() + LEASE_MS).toISOString(),
      });
    }

    // Another worker claims only the delivery that was not handed over; the disabled subscription's are held.
    const claimed = await claim('w2');
    expect(claimed.map((t) => t.subscriptionId)).toEqual([on.id]);
    expect(JSON.parse(claimed[0]!.webhook.body).data.firstName).toBe('L3');
    expect(new Set([...tasks, ...claimed].map((t) => t.webhook.eventId)).size).toBe(3);

    // The handed deliveries are recorded like claimed ones.
    await new RecordDeliveryOutcomes(deps).execute(
      'w1',
      tasks.map((task) => ({
        task,
        at: clock.now(),
        result: { statusCode: 204, latencyMs: 2, error: null, responseExcerpt: '' },
      })),
    );
    for (const t of tasks)
      expect(await deps.repos.webhookDeliveries.findById(actor.tenantId, on.id, t.deliveryId)).toMatchObject({
        status: 'delivered',
        leaseOwner: null,
      });
  });

  it('a handed delivery whose worker died is claimed by another once its lease has run out', async () => {
    const { clock, deps, subscribe, learner, claim } = await setup();
    await subscribe('on');
    await learner(4);
    const { tasks } = await new DispatchOutbox(deps).execute(500, { owner: 'dead', leaseMs: LEASE_MS, room: 10 });
    expect(tasks).toHaveLength(1);
    expect(await claim('w2')).toEqual([]);
    clock.advance(LEASE_MS + 1);
    const again = await claim('w2');
    expect(again.map((t) => t.deliveryId)).toEqual([tasks[0]!.deliveryId]);
    expect(again[0]!.webhook.body).toBe(tasks[0]!.webhook.body);
  });

  it('hands nothing without room, and nothing of events nobody subscribes to', async () => {
    const { deps, subscribe, learner, claim } = await setup();
    await learner(5);
    expect(await new DispatchOutbox(deps).execute(500, { owner: 'w1', leaseMs: LEASE_MS, room: 10 })).toEqual({
      taken: 1,
      tasks: [],
    });
    await subscribe('on');
    await learner(6);
    expect(await new DispatchOutbox(deps).execute(500, { owner: 'w1', leaseMs: LEASE_MS, room: 0 })).toEqual({
      taken: 1,
      tasks: [],
    });
    expect(await claim('w2')).toHaveLength(1);
  });
});
