import { beforeAll, expect, it } from 'vitest';
import type { PageRequest, TenantSnapshot } from '@fundi/domain';
import type { LearnerFilter, LearnerSnapshot } from '@fundi/domain/learners';
import { aLearner } from '@fundi/domain/testing';
import { describeEachStorage } from '../testing/each-storage.js';
import { aStoredTenant, at } from './learner-fixtures.js';

describeEachStorage('LearnerRepository contract: listing', (get) => {
  let other: TenantSnapshot;
  const repo = () => get().repos.learners;
  const fresh = () => aStoredTenant(get().repos);

  beforeAll(async () => {
    other = await aStoredTenant(get().repos);
  });

  it('filters lists by search (names, email, ID or alternative ID prefix), employeeRef and created range', async () => {
    const x = await fresh();
    const zola = aLearner({
      tenantId: x.id,
      firstName: 'Zola',
      lastName: 'Mokoena',
      email: 'zm@example.co.za',
      idNumber: '9001049818080',
      employeeRef: 'E1',
      createdAt: at(1),
    });
    const pieter = aLearner({
      tenantId: x.id,
      firstName: 'Pieter',
      lastName: 'Botha',
      email: 'PB@Corp.co.za',
      idNumber: '7311190013080',
      mobile: '+27821234567',
      employeeRef: 'E2',
      createdAt: at(2),
    });
    const naledi = aLearner({
      tenantId: x.id,
      firstName: 'Naledi',
      lastName: 'Zulu',
      email: 'n_z%@example.co.za',
      idNumber: '8001015009087',
      employeeRef: 'E1',
      createdAt: at(3),
    });
    for (const l of [zola, pieter, naledi]) await repo().insert(l);
    await repo().insert(aLearner({ tenantId: other.id, firstName: 'Zola' }));
    const ids = async (filter: LearnerFilter) =>
      (await repo().list(x.id, filter, { kind: 'offset', offset: 0, limit: 100 })).items.map((l) => l.id);
    await expect(ids({})).resolves.toEqual([zola.id, pieter.id, naledi.id]);
    await expect(ids({ search: 'zol' })).resolves.toEqual([zola.id]);
    await expect(ids({ search: 'ZULU' })).resolves.toEqual([naledi.id]);
    await expect(ids({ search: 'corp.co' })).resolves.toEqual([pieter.id]);
    await expect(ids({ search: '7311' })).resolves.toEqual([pieter.id]);
    await expect(ids({ search: '9818080' })).resolves.toEqual([]);
    // Full names in any order and case, the employee reference, and words that must all match.
    await expect(ids({ search: 'Zola Mokoena' })).resolves.toEqual([zola.id]);
    await expect(ids({ search: '  mokoena   ZOLA ' })).resolves.toEqual([zola.id]);
    await expect(ids({ search: 'zola botha' })).resolves.toEqual([]);
    await expect(ids({ search: 'e2' })).resolves.toEqual([pieter.id]);
    await expect(ids({ search: 'e1 zulu' })).resolves.toEqual([naledi.id]);
    for (const mobile of ['082 123 4567', '+27 82 123 4567', '0821234567', '27821234567'])
      await expect(ids({ search: mobile }), mobile).resolves.toEqual([pieter.id]);
    const tendai = aLearner({
      tenantId: x.id,
      firstName: 'Tendai',
      idNumber: null,
      citizenship: null,
      alternateId: 'FN99123',
      alternateIdType: 'passport',
      createdAt: at(4),
    });
    await repo().insert(tendai);
    await expect(ids({ search: 'fn99' })).resolves.toEqual([tendai.id]);
    await expect(ids({ search: '99123' })).resolves.toEqual([]);
    await repo().erase(x.id, tendai.id, at(5));
    await expect(ids({ search: '%' })).resolves.toEqual([naledi.id]);
    await expect(ids({ search: '_' })).resolves.toEqual([naledi.id]);
    await expect(ids({ employeeRef: 'E1' })).resolves.toEqual([zola.id, naledi.id]);
    await expect(ids({ createdFrom: at(2) })).resolves.toEqual([pieter.id, naledi.id]);
    await expect(ids({ createdTo: at(2) })).resolves.toEqual([zola.id, pieter.id]);
    await expect(ids({ createdFrom: at(2), createdTo: at(2), employeeRef: 'E2', search: 'piet' })).resolves.toEqual([
      pieter.id,
    ]);
    await expect(
      repo().list(x.id, { employeeRef: 'E1' }, { kind: 'offset', offset: 0, limit: 1 }),
    ).resolves.toMatchObject({ total: 2, hasMore: true });
    // Incremental sync: a later change moves a learner into the window of its update, whatever its creation.
    await repo().update({ ...zola, department: 'Ops', updatedAt: at(5) });
    await expect(ids({ updatedFrom: at(4) })).resolves.toEqual([zola.id]);
    await expect(ids({ updatedFrom: at(2), updatedTo: at(3) })).resolves.toEqual([pieter.id, naledi.id]);
    await expect(ids({ updatedTo: at(1) })).resolves.toEqual([]);
  });

  it('pages by cursor and by offset, in id order, with the filtered total', async () => {
    const x = await fresh();
    const made: LearnerSnapshot[] = [];
    for (let i = 0; i < 7; i++) {
      const l = aLearner({ tenantId: x.id });
      made.push(l);
      await repo().insert(l);
    }
    const sorted = made.map((l) => l.id).sort();
    const walk = async (next: (p: { items: LearnerSnapshot[] } | null) => PageRequest | null) => {
      const seen: string[] = [];
      let req = next(null);
      while (req) {
        const p = await repo().list(x.id, {}, req);
        expect(p.total).toBe(7);
        seen.push(...p.items.map((l) => l.id));
        req = p.hasMore ? next(p) : null;
      }
      return seen;
    };
    let offset = 0;
    await expect(
      walk((p) =>
        p ? { kind: 'cursor', after: p.items.at(-1)!.id, limit: 3 } : { kind: 'cursor', after: null, limit: 3 },
      ),
    ).resolves.toEqual(sorted);
    await expect(walk((p) => ({ kind: 'offset', offset: p ? (offset += 3) : 0, limit: 3 }))).resolves.toEqual(sorted);
    await expect(repo().list(x.id, {}, { kind: 'offset', offset: 7, limit: 3 })).resolves.toMatchObject({
      items: [],
      total: 7,
      hasMore: false,
    });
    await expect(repo().list((await fresh()).id, {}, { kind: 'cursor', after: null, limit: 3 })).resolves.toEqual({
      items: [],
      total: 0,
      hasMore: false,
    });
    await expect(repo().list(x.id, {}, { kind: 'cursor', after: sorted[5]!, limit: 1 })).resolves.toMatchObject({
      items: [{ id: sorted[6] }],
      hasMore: false,
    });
  });
});
