import { expect, it } from 'vitest';
import { newId } from '@fundi/domain';
import { aSubscription } from './webhook-fixtures.js';
import { describeEachStorage } from '../testing/each-storage.js';

describeEachStorage('webhook repositories: subscriptions', (get) => {
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
});
