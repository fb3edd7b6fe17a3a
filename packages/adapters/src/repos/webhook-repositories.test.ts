import { expect, it } from 'vitest';
import {
  newId,
  type AttemptOutcome,
  type DeliveryChange,
  type DeliverySnapshot,
  type DomainEvent,
  type WebhookSubscriptionSnapshot,
} from '@fundi/domain';
import { describeEachStorage } from '../testing/each-storage.js';
import { SqlWorkerLease } from '../jobs/sql-job-queue.js';
import { InMemoryWorkerLease, MemoryStore } from '@fundi/fakes';

const T0 = '2026-06-01T08:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();

const aSubscription = (
  tenantId: string,
  over: Partial<WebhookSubscriptionSnapshot> = {},
): WebhookSubscriptionSnapshot => ({
  id: newId('whs'),
  tenantId,
  purpose: 'webhook',
  url: 'https://hooks.example.com/x',
  events: ['learner.created'],
  enabled: true,
  secretCiphertext: 'v1.sealed',
  previousSecretCiphertext: null,
  previousSecretExpiresAt: null,
  disabledReason: null,
  createdAt: T0,
  updatedAt: T0,
  ...over,
});
const anEvent = (tenantId: string, over: Partial<DomainEvent> = {}): DomainEvent => ({
  id: newId('evt'),
  tenantId,
  type: 'learner.created',
  occurredAt: T0,
  data: { n: 1 },
  ...over,
});
const aDelivery = (
  e: DomainEvent,
  s: WebhookSubscriptionSnapshot,
  over: Partial<DeliverySnapshot> = {},
): DeliverySnapshot => ({
  id: newId('dlv'),
  tenantId: e.tenantId,
  subscriptionId: s.id,
  eventId: e.id,
  eventType: e.type,
  status: 'pending',
  attempts: 0,
  nextAttemptAt: T0,
  leaseOwner: null,
  leaseUntil: null,
  lastStatusCode: null,
  deliveredAt: null,
  createdAt: T0,
  ...over,
});

/** An attempt outcome for `d`: its log entry and the change `change` (the attempt number is `change.attempts`). */
const outcome = (d: DeliverySnapshot, change: DeliveryChange): AttemptOutcome => ({
  change,
  attempt: {
    id: newId('wha'),
    deliveryId: d.id,
    tenantId: d.tenantId,
    subscriptionId: d.subscriptionId,
    eventId: d.eventId,
    eventType: d.eventType,
    attempt: change.attempts,
    at: T0,
    statusCode: change.lastStatusCode,
    latencyMs: 3,
    error: change.status === 'delivered' ? null : 'HTTP 500',
    responseExcerpt: null,
  },
});

describeEachStorage('webhook repositories', (get, kind) => {
  /** A subscription with `n` due deliveries of fresh events. */
  async function seed(n: number, over: Partial<DeliverySnapshot> = {}) {
    const { uow } = get();
    const tenant = newId('ten');
    const s = aSubscription(tenant);
    const events = Array.from({ length: n }, () => anEvent(tenant));
    const ds = events.map((e) => aDelivery(e, s, over));
    await uow.run(async (tx) => {
      await tx.webhookSubscriptions.insert(s);
      for (const e of events) await tx.outbox.add(e);
      await tx.webhookDeliveries.insertMany(ds);
    });
    return { tenant, s, events, ds };
  }
  const claim = (owner: string, now: string, limit = 100, leaseMs = 30_000) =>
    get().uow.run((tx) =>
      tx.webhookDeliveries.claimDue(owner, now, at(Date.parse(now) - Date.parse(T0) + leaseMs), limit),
    );

  it("stores subscriptions per tenant: another tenant's is absent", async () => {
    const { repos, uow } = get();
    const [a, b] = [newId('ten'), newId('ten')];
    const s = aSubscription(a, { events: ['learner.created', 'export.ready'] });
    await uow.run((tx) => tx.webhookSubscriptions.insert(s));
    expect(await repos.webhookSubscriptions.findById(a, s.id)).toEqual(s);
    expect(await repos.webhookSubscriptions.findById(b, s.id)).toBeNull();
    await uow.run((tx) =>
      tx.webhookSubscriptions.update({ ...s, enabled: false, disabledReason: 'x', url: 'https://b.example/' }),
    );
    expect(await repos.webhookSubscriptions.findById(a, s.id)).toMatchObject({
      enabled: false,
      disabledReason: 'x',
      url: 'https://b.example/',
    });
    await expect(uow.run((tx) => tx.webhookSubscriptions.update({ ...s, tenantId: b }))).rejects.toMatchObject({
      kind: 'not_found',
    });
    expect((await repos.webhookSubscriptions.list(a, { kind: 'offset', offset: 0, limit: 10 })).total).toBe(1);
    expect((await repos.webhookSubscriptions.listForTenants([a, b])).map((x) => x.id)).toEqual([s.id]);
    expect(await uow.run((tx) => tx.webhookSubscriptions.delete(b, s.id))).toBe(false);
    expect(await uow.run((tx) => tx.webhookSubscriptions.delete(a, s.id))).toBe(true);
    expect(await repos.webhookSubscriptions.findById(a, s.id)).toBeNull();
  });

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

  it('claims due deliveries once per lease, with their event and subscription', async () => {
    const { events, s } = await seed(3);
    const first = await claim('w1', at(1000), 2);
    expect(first).toHaveLength(2);
    expect(first[0]!.event).toEqual(events.find((e) => e.id === first[0]!.delivery.eventId));
    expect(first[0]!.subscription).toMatchObject({ url: s.url, secretCiphertext: s.secretCiphertext, enabled: true });
    expect(first[0]!.delivery).toMatchObject({ leaseOwner: 'w1' });
    const second = await claim('w2', at(1000));
    expect(second.map((c) => c.delivery.id)).not.toContain(first[0]!.delivery.id);
    expect(second.filter((c) => c.delivery.subscriptionId === s.id)).toHaveLength(1);
    // After the lease expires (a dead worker), the work is claimed again.
    const later = (await claim('w3', at(31_001))).filter((c) => c.delivery.subscriptionId === s.id);
    expect(later).toHaveLength(3);
  });

  it('does not claim what is not due, held, delivered or dead', async () => {
    const { s } = await seed(1, { nextAttemptAt: at(60_000) });
    const other = await seed(1, { status: 'held', nextAttemptAt: null });
    const done = await seed(1, { status: 'delivered', nextAttemptAt: null });
    const mine = (cs: { delivery: DeliverySnapshot }[]) =>
      cs.filter((c) => [s.id, other.s.id, done.s.id].includes(c.delivery.subscriptionId));
    expect(mine(await claim('w', at(59_999)))).toHaveLength(0);
    expect(mine(await claim('w', at(60_000)))).toHaveLength(1);
  });

  it('saves outcomes only for the lease holder, and releases leases', async () => {
    const { ds, s, tenant } = await seed(2);
    await claim('w1', at(0));
    await get().uow.run((tx) =>
      tx.webhookDeliveries.saveOutcomes('intruder', [
        outcome(ds[0]!, {
          status: 'delivered',
          attempts: 1,
          nextAttemptAt: null,
          lastStatusCode: 200,
          deliveredAt: at(10),
        }),
      ]),
    );
    expect(await get().repos.webhookDeliveries.findById(tenant, s.id, ds[0]!.id)).toMatchObject({
      status: 'pending',
      leaseOwner: 'w1',
    });
    await get().uow.run((tx) =>
      tx.webhookDeliveries.saveOutcomes('w1', [
        outcome(ds[0]!, {
          status: 'delivered',
          attempts: 1,
          nextAttemptAt: null,
          lastStatusCode: 200,
          deliveredAt: at(10),
        }),
        outcome(ds[1]!, {
          status: 'failed',
          attempts: 1,
          nextAttemptAt: at(300_000),
          lastStatusCode: 500,
          deliveredAt: null,
        }),
      ]),
    );
    // A lost lease keeps the attempt in the log (it did happen); the holder's two are logged too.
    expect((await get().repos.webhookAttempts.list(tenant, s.id, { kind: 'offset', offset: 0, limit: 10 })).total).toBe(
      3,
    );
    expect(await get().repos.webhookDeliveries.findById(tenant, s.id, ds[0]!.id)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 200,
      deliveredAt: at(10),
      leaseOwner: null,
    });
    expect(await get().repos.webhookDeliveries.findById(tenant, s.id, ds[1]!.id)).toMatchObject({
      status: 'failed',
      nextAttemptAt: at(300_000),
      leaseOwner: null,
      leaseUntil: null,
    });
    const more = await seed(1);
    await claim('w9', at(0));
    expect(await get().uow.run((tx) => tx.webhookDeliveries.release('w9'))).toBeGreaterThanOrEqual(1);
    expect((await claim('w10', at(0))).map((c) => c.delivery.id)).toContain(more.ds[0]!.id);
  });

  it("claims and saves outcomes outside a unit of work, each delivery with its own new state, beyond one statement's 500", async () => {
    const { repos } = get();
    const { ds, s, tenant } = await seed(520);
    const claimed = await repos.webhookDeliveries.claimDue('solo', at(0), at(30_000), 600);
    const mine = claimed.filter((c) => c.delivery.subscriptionId === s.id);
    expect(mine).toHaveLength(520);
    expect(mine[0]!.event.data).toEqual({ n: 1 });
    const changeOf = (i: number): DeliveryChange =>
      i % 2 === 0
        ? { status: 'delivered', attempts: 1, nextAttemptAt: null, lastStatusCode: 200 + (i % 7), deliveredAt: at(i) }
        : {
            status: 'failed',
            attempts: 1,
            nextAttemptAt: at(300_000 + i),
            lastStatusCode: i % 3 ? 500 : null,
            deliveredAt: null,
          };
    await repos.webhookDeliveries.saveOutcomes(
      'solo',
      ds.map((d, i) => outcome(d, changeOf(i))),
    );
    for (const i of [0, 1, 3, 518, 519]) {
      expect(await repos.webhookDeliveries.findById(tenant, s.id, ds[i]!.id)).toMatchObject({
        ...changeOf(i),
        leaseOwner: null,
        leaseUntil: null,
      });
    }
    expect((await repos.webhookAttempts.list(tenant, s.id, { kind: 'offset', offset: 0, limit: 1 })).total).toBe(520);
    expect(
      (await repos.webhookDeliveries.claimDue('solo', at(300_001), at(330_000), 600)).filter(
        (c) => c.delivery.subscriptionId === s.id,
      ),
    ).toHaveLength(1);
  });

  it("holds a disabled subscription's deliveries and re-queues everything undelivered on enable", async () => {
    const { ds, s, tenant } = await seed(3);
    const { uow, repos } = get();
    await uow.run((tx) => tx.webhookDeliveries.saveOutcomes('nobody', []));
    await claim('w', at(0));
    await uow.run((tx) =>
      tx.webhookDeliveries.saveOutcomes('w', [
        outcome(ds[0]!, {
          status: 'delivered',
          attempts: 1,
          nextAttemptAt: null,
          lastStatusCode: 200,
          deliveredAt: at(1),
        }),
        outcome(ds[1]!, { status: 'dead', attempts: 5, nextAttemptAt: null, lastStatusCode: 500, deliveredAt: null }),
        outcome(ds[2]!, {
          status: 'failed',
          attempts: 2,
          nextAttemptAt: at(1_800_000),
          lastStatusCode: 500,
          deliveredAt: null,
        }),
      ]),
    );
    expect(await uow.run((tx) => tx.webhookDeliveries.hold(s.id))).toBe(1);
    expect(await repos.webhookDeliveries.findById(tenant, s.id, ds[2]!.id)).toMatchObject({
      status: 'held',
      nextAttemptAt: null,
    });
    expect(await uow.run((tx) => tx.webhookDeliveries.requeueUndelivered(s.id, at(5000)))).toBe(2);
    for (const d of [ds[1]!, ds[2]!])
      expect(await repos.webhookDeliveries.findById(tenant, s.id, d.id)).toMatchObject({
        status: 'pending',
        attempts: 0,
        nextAttemptAt: at(5000),
      });
    expect(await repos.webhookDeliveries.findById(tenant, s.id, ds[0]!.id)).toMatchObject({ status: 'delivered' });
  });

  it('concurrent claimers never receive the same delivery', async () => {
    const { s } = await seed(150);
    const owners = Array.from({ length: 8 }, (_, i) => `c${i}`);
    const claims = await Promise.all(owners.map((o) => claim(o, at(0), 25)));
    const ids = claims
      .flat()
      .filter((c) => c.delivery.subscriptionId === s.id)
      .map((c) => c.delivery.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(0);
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

  it('runs jobs: claim with a lease, retry later, finish', async () => {
    const { uow, repos } = get();
    const id = newId('job');
    await uow.run((tx) =>
      tx.jobs.enqueue({
        id,
        kind: `k-${kind}`,
        lane: 'short',
        payload: { a: 1 },
        dueAt: at(0),
        maxAttempts: 10,
        idempotencyKey: null,
        createdAt: at(0),
      }),
    );
    const claimJobs = (owner: string, now: string) =>
      uow.run((tx) =>
        tx.jobs.claimDue(owner, 'short', [`k-${kind}`], now, at(Date.parse(now) - Date.parse(T0) + 10_000), 5),
      );
    expect(await claimJobs('w1', at(0))).toMatchObject([{ id, payload: { a: 1 }, attempts: 1, leaseOwner: 'w1' }]);
    expect(await claimJobs('w2', at(5000))).toEqual([]);
    await uow.run((tx) => tx.jobs.retry(id, 'w1', at(60_000), 'boom'));
    expect(await claimJobs('w2', at(59_000))).toEqual([]);
    expect(await claimJobs('w2', at(60_000))).toMatchObject([{ id, attempts: 2, lastError: 'boom' }]);
    await uow.run((tx) => tx.jobs.finish(id, 'w2', at(61_000), null));
    expect(await repos.jobs.findById(id)).toMatchObject({ doneAt: at(61_000), leaseOwner: null });
    expect(await claimJobs('w3', at(999_000))).toEqual([]);
  });

  it('lets one worker at a time hold the worker lease', async () => {
    const lease = get().db
      ? new SqlWorkerLease(get().db!)
      : new InMemoryWorkerLease(new MemoryStore({ jobs: new Map(), workerLease: null }));
    const owner = `${kind}-a`;
    expect(await lease.acquire(owner, at(0), at(1000))).toBe(true);
    expect(await lease.acquire('other', at(500), at(1500))).toBe(false);
    expect(await lease.acquire(owner, at(900), at(1900))).toBe(true);
    expect(await lease.acquire('other', at(1901), at(2901))).toBe(true);
    await lease.release('other');
    expect(await lease.acquire(owner, at(1950), at(2950))).toBe(true);
  });
});
