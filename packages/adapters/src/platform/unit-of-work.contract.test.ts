import { expect, it } from 'vitest';
import type { Actor } from '@fundi/application';
import { RegisterLearner } from '@fundi/application/learners';
import { newId, type TenantSnapshot } from '@fundi/domain';
import { aLearner, aLearnerInput, aTenant } from '@fundi/domain/testing';
import { FixedClock } from '@fundi/testing';
import { describeEachStorage } from '../testing/each-storage.js';

describeEachStorage('UnitOfWork contract', (get, kind) => {
  const events = (tenantId: string) => get().repos.outbox.list(tenantId, { limit: 100 });
  const actor = (tenantId: string): Actor => ({ tenantId, id: 'key_test', role: 'admin', scopes: ['learners:write'] });

  async function freshTenant(): Promise<TenantSnapshot> {
    const x = aTenant();
    await get().repos.tenants.insert(x);
    return x;
  }

  it("commits every write and returns the work's value", async () => {
    const x = await freshTenant();
    const l = aLearner({ tenantId: x.id });
    const result = await get().uow.run(async (tx) => {
      await tx.learners.insert(l);
      await tx.outbox.add({
        id: newId('evt'),
        tenantId: x.id,
        type: 'learner.created',
        occurredAt: l.createdAt,
        data: { id: l.id },
      });
      await expect(tx.learners.findById(x.id, l.id)).resolves.toMatchObject({ id: l.id });
      return 42;
    });
    expect(result).toBe(42);
    await expect(get().repos.learners.findById(x.id, l.id)).resolves.toMatchObject({ id: l.id });
    await expect(events(x.id)).resolves.toHaveLength(1);
  });

  it('a failed write leaves neither the row nor its event, and rethrows the same error', async () => {
    const x = await freshTenant();
    const l = aLearner({ tenantId: x.id });
    const crash = new Error('crash after the outbox write');
    await expect(
      get().uow.run(async (tx) => {
        await tx.learners.insert(l);
        await tx.outbox.add({
          id: newId('evt'),
          tenantId: x.id,
          type: 'learner.created',
          occurredAt: l.createdAt,
          data: { id: l.id },
        });
        await tx.audit.record({
          id: newId('aud'),
          tenantId: x.id,
          actor: 'cli',
          action: 'learner.created',
          resourceType: 'learner',
          resourceId: l.id,
          at: l.createdAt,
          details: {},
        });
        throw crash;
      }),
    ).rejects.toBe(crash);
    await expect(get().repos.learners.findById(x.id, l.id)).resolves.toBeNull();
    await expect(events(x.id)).resolves.toEqual([]);
    await expect(get().repos.audit.list(x.id, { limit: 10 })).resolves.toEqual([]);
  });

  it.runIf(kind !== 'memory')('a database error in the outbox insert rolls back the learner too', async () => {
    const x = await freshTenant();
    const l = aLearner({ tenantId: x.id });
    const evt = { id: newId('evt'), tenantId: x.id, type: 'learner.created', occurredAt: l.createdAt, data: {} };
    await expect(
      get().uow.run(async (tx) => {
        await tx.learners.insert(l);
        await tx.outbox.add(evt);
        await tx.outbox.add(evt); // same primary key: the database refuses it
      }),
    ).rejects.toThrow();
    await expect(get().repos.learners.findById(x.id, l.id)).resolves.toBeNull();
    await expect(events(x.id)).resolves.toEqual([]);
  });

  it.runIf(kind !== 'memory')('reads outside a transaction do not see its uncommitted writes', async () => {
    const x = await freshTenant();
    const l = aLearner({ tenantId: x.id });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let inserted!: () => void;
    const didInsert = new Promise<void>((r) => (inserted = r));
    const tx = get().uow.run(async (r) => {
      await r.learners.insert(l);
      inserted();
      await gate;
    });
    await didInsert;
    await expect(get().repos.learners.findById(x.id, l.id)).resolves.toBeNull();
    release();
    await tx;
    await expect(get().repos.learners.findById(x.id, l.id)).resolves.toMatchObject({ id: l.id });
  });

  it('concurrent transactions all commit', async () => {
    const x = await freshTenant();
    const ls = Array.from({ length: 5 }, () => aLearner({ tenantId: x.id }));
    await Promise.all(ls.map((l) => get().uow.run((tx) => tx.learners.insert(l))));
    await expect(get().repos.learners.list(x.id, {}, { kind: 'offset', offset: 0, limit: 10 })).resolves.toMatchObject({
      total: 5,
    });
  });

  it('RegisterLearner: a duplicate-email create leaves exactly the first learner and its event', async () => {
    const x = await freshTenant();
    const register = new RegisterLearner({ repos: get().repos, uow: get().uow, clock: new FixedClock() });
    const first = await register.execute(actor(x.id), aLearnerInput({ email: 'same@example.co.za' }));
    await expect(register.execute(actor(x.id), aLearnerInput({ email: 'SAME@example.co.za' }))).rejects.toMatchObject({
      kind: 'conflict',
      code: 'duplicate_email',
    });
    const evs = await events(x.id);
    expect(evs.map((e) => [e.type, e.data.id])).toEqual([['learner.created', first.id]]);
    await expect(get().repos.learners.list(x.id, {}, { kind: 'offset', offset: 0, limit: 10 })).resolves.toMatchObject({
      total: 1,
    });
    await expect(get().repos.audit.list(x.id, { limit: 10 })).resolves.toHaveLength(1);
  });
});
