import { expect, it } from 'vitest';
import type { DeliveryChange, DeliverySnapshot } from '@fundi/domain/webhooks';
import { at, deliveryHelpers, outcome } from './webhook-fixtures.js';
import { describeEachStorage } from '../testing/each-storage.js';

describeEachStorage('webhook repositories: delivery claims and outcomes', (get) => {
  const { seed, claim } = deliveryHelpers(get);

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
});
