import { expect, it } from 'vitest';
import { LEARNERS_WRITTEN_EVENT, RegisterLearner, learnersWrittenExpansion } from '@fundi/application/learners';
import { CreateWebhookSubscription, DispatchOutbox, expandWanted } from '@fundi/application/webhooks';
import { newId, type DomainEvent } from '@fundi/domain';
import { idNumberFor } from '@fundi/domain/testing';
import { describeEachStorage } from '../testing/each-storage.js';
import { webhookWorld } from '../testing/webhook-world.js';

describeEachStorage('compact events: learners.written becomes learner.created where a subscription wants it', (get) => {
  async function setup(n: number) {
    const { clock, all, deps, actor } = await webhookWorld(get());
    const withExpansion = { ...deps, expansions: [learnersWrittenExpansion] };
    const learners: Awaited<ReturnType<RegisterLearner['execute']>>[] = [];
    for (let i = 0; i < n; i++)
      learners.push(
        await new RegisterLearner(all).execute(actor, {
          firstName: `C${i}`,
          lastName: 'Compact',
          idNumber: idNumberFor(7_000 + i + Math.floor(Math.random() * 1e6) * 10),
        }),
      );
    // Drains the API's own learner.created events (and earlier tests'), so each test sees only its compact event.
    await new DispatchOutbox(deps).execute(10_000);
    const compact: DomainEvent = {
      id: newId('evt', clock.now().getTime()),
      tenantId: actor.tenantId,
      type: LEARNERS_WRITTEN_EVENT,
      occurredAt: clock.now().toISOString(),
      data: { learnerIds: learners.map((l) => l.id) },
    };
    await deps.uow.run((tx) => tx.outbox.add(compact));
    const about = async () =>
      (await deps.repos.outboxFeed.since(actor.tenantId, '2000-01-01', ['learner.created'], null, 1000)).filter((e) =>
        learners.some((l) => l.id === e.subjectId),
      );
    // The API wrote a learner.created of its own for each; the expansion's are the ones beside those.
    const apis = new Set((await about()).map((e) => e.id));
    const createdAbout = async () => (await about()).filter((e) => !apis.has(e.id));
    return { clock, deps, withExpansion, actor, learners, compact, createdAbout };
  }

  it('with a subscription: one learner.created per learner, the learner as the API shows it, handed out whole', async () => {
    const { deps, withExpansion, actor, learners, compact, createdAbout } = await setup(2);
    const sub = await new CreateWebhookSubscription(deps).execute(actor, {
      url: 'https://hooks.example.com/compact',
      events: ['learner.created'],
    });
    const { tasks } = await new DispatchOutbox(withExpansion).execute(500, { owner: 'w1', leaseMs: 30_000, room: 10 });
    const made = await createdAbout();
    expect(made.map((e) => e.subjectId)).toEqual(learners.map((l) => l.id));
    for (const [i, e] of made.entries()) {
      expect(e).toMatchObject({ occurredAt: compact.occurredAt, tenantId: actor.tenantId });
      expect(e.data).toEqual(JSON.parse(JSON.stringify(learners[i])));
    }
    const mine = tasks.filter((t) => t.subscriptionId === sub.id);
    expect(mine.map((t) => t.webhook.eventId).sort()).toEqual(made.map((e) => e.id).sort());
    expect(JSON.parse(mine[0]!.webhook.body).data).toMatchObject({ lastName: 'Compact' });
    const marked = await deps.repos.outboxFeed.findById(actor.tenantId, compact.id);
    expect(marked!.data).toMatchObject({ learnerIds: compact.data.learnerIds, expandedAt: expect.any(String) });
    // Marked once: a second expansion (a replay racing the fan-out) makes nothing.
    const again = await deps.uow.run((tx) =>
      expandWanted(
        tx,
        [learnersWrittenExpansion],
        [compact],
        [{ tenantId: actor.tenantId, events: ['learner.created'] }],
        new Date(),
      ),
    );
    expect(again).toEqual([]);
    expect(await createdAbout()).toHaveLength(2);
  });

  it('without one: nothing is made and the compact event stays unmarked', async () => {
    const { deps, withExpansion, actor, compact, createdAbout } = await setup(1);
    await new DispatchOutbox(withExpansion).execute(500);
    expect(await createdAbout()).toEqual([]);
    expect((await deps.repos.outboxFeed.findById(actor.tenantId, compact.id))!.data).toEqual(compact.data);
  });
});
