import { describe, expect, it } from 'vitest';
import { DomainError } from '@fundi/domain';
import { CreateTenant } from '../tenants/create-tenant.js';
import { anActor, fakeDeps, TEST_HOOKS } from '../testing/fakes.js';
import type { StaffField, StaffFieldSchemas } from './staff-fields.js';
import { staffUseCases } from './staff-use-cases.js';

type Badges = Readonly<Record<string, number>>;

/**
 * A field another capability adds to a staff user, as the staff directory sees it: `{badge: count}`, merged key by
 * key, kept by the field itself (here in `kept`; `failWrites` makes its write fail).
 */
function badgesField(kept: Map<string, Badges>, o: { failWrites?: boolean } = {}): StaffField<Badges> {
  return {
    name: 'badges',
    // The use cases never read a field's schemas: the HTTP routes do.
    schemas: {} as StaffFieldSchemas,
    initial: () => ({}),
    parse: (v) => {
      if (typeof v !== 'object' || v === null) throw DomainError.invalid('badges', 'must be an object');
      const bad = Object.entries(v).filter(([, n]) => typeof n !== 'number');
      if (bad.length) throw DomainError.invalidMany(bad.map(([k]) => ({ field: `badges.${k}`, message: 'a count' })));
      return v as Badges;
    },
    merge: (current, patch) => ({ ...current, ...patch }),
    view: (v) => ({ total: Object.values(v).reduce((a, b) => a + b, 0), ...v }),
    read: async (_repos, tenantId, ids) =>
      new Map(ids.flatMap((id) => (kept.has(`${tenantId}/${id}`) ? [[id, kept.get(`${tenantId}/${id}`)!]] : []))),
    write: async (_tx, tenantId, id, v) => {
      if (o.failWrites) throw new Error('the store of badges is down');
      kept.set(`${tenantId}/${id}`, v);
    },
  };
}

async function world(o: { failWrites?: boolean } = {}) {
  const deps = fakeDeps();
  const kept = new Map<string, Badges>();
  const hooks = { ...TEST_HOOKS, staffFields: [() => badgesField(kept, o)] };
  const { tenant } = await new CreateTenant(deps).execute({ slug: 'acme', name: 'Acme', plan: 'pilot' });
  const actor = anActor(tenant.id);
  return { deps, kept, actor, u: staffUseCases({ ...deps, hooks }) };
}

describe("the fields other capabilities add to a staff user (the staff's `staffFields` hook)", () => {
  it('reads an added field from the body, writes it with the user, merges a change, and shows it', async () => {
    const { kept, actor, u } = await world();
    const made = await u.createUser.execute(actor, {
      name: 'Sipho Dlamini',
      email: 'sipho@example.org',
      role: 'assessor',
      badges: { gold: 2 },
    });
    expect(made).toMatchObject({ name: 'Sipho Dlamini', badges: { total: 2, gold: 2 } });
    expect(Object.keys(made)).toEqual([
      'id',
      'name',
      'email',
      'mobile',
      'role',
      'status',
      'badges',
      'hasPassword',
      'createdAt',
      'updatedAt',
    ]);
    expect(kept.get(`${actor.tenantId}/${made.id}`)).toEqual({ gold: 2 });
    // A user given none shows the initial value, and nothing is written for them.
    const plain = await u.createUser.execute(actor, { name: 'Thandi', email: 'thandi@example.org', role: 'viewer' });
    expect(plain.badges).toEqual({ total: 0 });
    expect(kept.has(`${actor.tenantId}/${plain.id}`)).toBe(false);

    const patched = await u.updateUser.execute(actor, made.id, { badges: { silver: 1 } });
    expect(patched.badges).toEqual({ total: 3, gold: 2, silver: 1 });
    const renamed = await u.updateUser.execute(actor, made.id, { name: 'Sipho D.' });
    expect(renamed.badges).toEqual({ total: 3, gold: 2, silver: 1 });
    expect((await u.getUser.execute(actor, made.id)).badges).toEqual({ total: 3, gold: 2, silver: 1 });
    const listed = await u.listUsers.execute(actor, {}, { kind: 'offset', offset: 0, limit: 10 });
    expect(listed.items.map((x) => x.badges)).toEqual(
      expect.arrayContaining([{ total: 3, gold: 2, silver: 1 }, { total: 0 }]),
    );
    expect((await u.setUserStatus.execute(actor, made.id, 'disabled')).badges).toEqual({
      total: 3,
      gold: 2,
      silver: 1,
    });
  });

  it("reports a field's errors with the user's own, at once, and writes nothing", async () => {
    const { deps, kept, actor, u } = await world();
    const refused = u.createUser.execute(actor, {
      name: 'Sipho',
      email: 'sipho@example.org',
      role: 'assessor',
      mobile: '123',
      badges: { gold: 'many' },
    });
    await expect(refused).rejects.toMatchObject({
      kind: 'invalid',
      code: 'invalid_request',
      details: [expect.objectContaining({ field: 'mobile' }), { field: 'badges.gold', message: 'a count' }],
    });
    expect(await deps.repos.staffCredentials.listByTenant(actor.tenantId)).toEqual([]);
    expect(kept.size).toBe(0);
    const made = await u.createUser.execute(actor, { name: 'S', email: 's@example.org', role: 'viewer' });
    await expect(u.updateUser.execute(actor, made.id, { role: 'nobody', badges: [1, 'x'] })).rejects.toMatchObject({
      details: [expect.objectContaining({ field: 'role' }), { field: 'badges.1', message: 'a count' }],
    });
    expect((await u.getUser.execute(actor, made.id)).role).toBe('viewer');
  });

  it("commits the user, its audit entry and its event only with the field's write", async () => {
    const { deps, actor, u } = await world({ failWrites: true });
    const audit = deps.store.tables.audit.length;
    const outbox = deps.store.tables.outbox.length;
    await expect(
      u.createUser.execute(actor, { name: 'S', email: 's@example.org', role: 'viewer', badges: { gold: 1 } }),
    ).rejects.toThrow('the store of badges is down');
    expect(await deps.repos.staffCredentials.listByTenant(actor.tenantId)).toEqual([]);
    expect(deps.store.tables.audit.length).toBe(audit);
    expect(deps.store.tables.outbox.length).toBe(outbox);
    const made = await u.createUser.execute(actor, { name: 'S', email: 's@example.org', role: 'viewer' });
    await expect(u.updateUser.execute(actor, made.id, { name: 'T', badges: { gold: 1 } })).rejects.toThrow();
    expect((await u.getUser.execute(actor, made.id)).name).toBe('S');
  });
});
