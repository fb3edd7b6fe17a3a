import { expect, it } from 'vitest';
import { newId } from '@fundi/domain';
import { anEvent, at, deliveryHelpers, T0 } from './webhook-fixtures.js';
import { describeEachStorage } from '../testing/each-storage.js';

describeEachStorage('webhook repositories: outbox feed and attempt log', (get) => {
  const { seed } = deliveryHelpers(get);

  it('takes each outbox event once and finds events since a time', async () => {
    const { repos, uow } = get();
    const tenant = newId('ten');
    const events = [
      anEvent(tenant, { occurredAt: at(0) }),
      anEvent(tenant, { occurredAt: at(1000), type: 'export.ready' }),
      anEvent(tenant, { occurredAt: at(2000) }),
    ];
    await uow.run(async (tx) => {
      for (const e of events) await tx.outbox.add(e);
    });
    const taken = await uow.run((tx) => tx.outboxFeed.takeUndispatched(1000, at(5000)));
    expect(taken.filter((e) => e.tenantId === tenant).map((e) => e.id)).toEqual(events.map((e) => e.id));
    expect(taken.filter((e) => e.tenantId === tenant).map((e) => e.data)).toEqual(events.map((e) => e.data));
    expect(
      (await uow.run((tx) => tx.outboxFeed.takeUndispatched(1000, at(6000)))).filter((e) => e.tenantId === tenant),
    ).toEqual([]);
    const since = await repos.outboxFeed.since(tenant, at(1000), ['learner.created'], null, 10);
    expect(since.map((e) => e.id)).toEqual([events[2]!.id]);
    expect(
      await repos.outboxFeed.since(tenant, at(0), ['learner.created', 'export.ready'], events[0]!.id, 10),
    ).toHaveLength(2);
    expect(await repos.outboxFeed.findById(tenant, events[1]!.id)).toEqual(events[1]);
    expect(await repos.outboxFeed.findById(newId('ten'), events[1]!.id)).toBeNull();
  });

  it('takes events without the data nobody reads: only the types asked for, and events without a subject', async () => {
    const { uow } = get();
    const tenant = newId('ten');
    const lean = anEvent(tenant, { subjectId: newId('lrn') });
    const bare = anEvent(tenant);
    const asked = anEvent(tenant, { type: 'export.ready', subjectId: newId('exp') });
    await uow.run(async (tx) => {
      for (const e of [lean, bare, asked]) await tx.outbox.add(e);
    });
    const taken = (
      await uow.run((tx) => tx.outboxFeed.takeUndispatched(1000, at(5000), ['export.ready', 'ping']))
    ).filter((e) => e.tenantId === tenant);
    expect(taken.map((e) => e.id)).toEqual([lean.id, bare.id, asked.id]);
    expect(taken[0]).toMatchObject({ type: lean.type, subjectId: lean.subjectId, occurredAt: lean.occurredAt });
    expect(() => taken[0]!.data).toThrow(/not read/);
    expect(taken[1]!.data).toEqual(bare.data);
    expect(taken[2]!.data).toEqual(asked.data);
  });

  it('logs attempts newest first, paged by cursor and offset', async () => {
    const { uow, repos } = get();
    const { s, tenant, ds, events } = await seed(1);
    const attempts = [1, 2, 3].map((n) => ({
      id: newId('wha', Date.parse(T0) + n),
      deliveryId: ds[0]!.id,
      tenantId: tenant,
      subscriptionId: s.id,
      eventId: events[0]!.id,
      eventType: 'learner.created',
      attempt: n,
      at: at(n),
      statusCode: n === 3 ? 200 : null,
      latencyMs: 12,
      error: n === 3 ? null : 'timeout',
      responseExcerpt: n === 3 ? 'ok' : null,
    }));
    const change = {
      status: 'failed',
      attempts: 1,
      nextAttemptAt: null,
      lastStatusCode: null,
      deliveredAt: null,
    } as const;
    await uow.run((tx) =>
      tx.webhookDeliveries.saveOutcomes(
        'nobody',
        attempts.map((attempt) => ({ attempt, change })),
      ),
    );
    const page1 = await repos.webhookAttempts.list(tenant, s.id, { kind: 'cursor', after: null, limit: 2 });
    expect(page1).toMatchObject({ total: 3, hasMore: true });
    expect(page1.items.map((a) => a.attempt)).toEqual([3, 2]);
    expect(page1.items[0]).toEqual(attempts[2]);
    const page2 = await repos.webhookAttempts.list(tenant, s.id, {
      kind: 'cursor',
      after: page1.items[1]!.id,
      limit: 2,
    });
    expect(page2.items.map((a) => a.attempt)).toEqual([1]);
    expect(
      (await repos.webhookAttempts.list(tenant, s.id, { kind: 'offset', offset: 1, limit: 5 })).items.map(
        (a) => a.attempt,
      ),
    ).toEqual([2, 1]);
    expect((await repos.webhookAttempts.list(newId('ten'), s.id, { kind: 'offset', offset: 0, limit: 5 })).total).toBe(
      0,
    );
  });
});
