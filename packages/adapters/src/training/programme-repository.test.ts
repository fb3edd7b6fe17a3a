import { expect, it } from 'vitest';
import { describeEachStorage } from '../testing/each-storage.js';
import { aProgramme, seedTenant } from '../testing/training-builders.js';

describeEachStorage('ProgrammeRepository contract', (get) => {
  it('inserts and finds by id, code and ids; another tenant sees nothing', async () => {
    const { repos } = get();
    const { tenantId } = await seedTenant(repos, 0);
    const other = await seedTenant(repos, 0);
    const p = aProgramme(tenantId);
    await repos.programmes.insert(p);
    expect(await repos.programmes.findById(tenantId, p.id)).toEqual(p);
    expect(await repos.programmes.findByCode(tenantId, p.code)).toEqual(p);
    expect(await repos.programmes.findByIds(tenantId, [p.id, 'prg_none'])).toEqual([p]);
    expect(await repos.programmes.findById(other.tenantId, p.id)).toBeNull();
    expect(await repos.programmes.findByCode(other.tenantId, p.code)).toBeNull();
  });

  it('keeps codes unique per tenant only', async () => {
    const { repos } = get();
    const a = await seedTenant(repos, 0);
    const b = await seedTenant(repos, 0);
    await repos.programmes.insert(aProgramme(a.tenantId, { code: 'SAME' }));
    await expect(repos.programmes.insert(aProgramme(a.tenantId, { code: 'SAME' }))).rejects.toMatchObject({
      kind: 'conflict',
      code: 'duplicate_programme_code',
    });
    await expect(repos.programmes.insert(aProgramme(b.tenantId, { code: 'SAME' }))).resolves.toBeUndefined();
  });

  it('updates, deletes, and reports a missing programme', async () => {
    const { repos } = get();
    const { tenantId } = await seedTenant(repos, 0);
    const p = aProgramme(tenantId);
    await repos.programmes.insert(p);
    const next = {
      ...p,
      name: 'Renamed',
      nqfLevel: null,
      status: 'retired' as const,
      retiredAt: '2026-06-02T00:00:00.000Z',
      modules: [{ code: 'Z', name: 'Zed', kind: 'workplace' as const, credits: 5 }],
    };
    await repos.programmes.update(next);
    expect(await repos.programmes.findById(tenantId, p.id)).toEqual(next);
    await expect(repos.programmes.update({ ...next, tenantId: 'ten_other' })).rejects.toMatchObject({
      kind: 'not_found',
    });
    expect(await repos.programmes.delete('ten_other', p.id)).toBe(false);
    expect(await repos.programmes.delete(tenantId, p.id)).toBe(true);
    expect(await repos.programmes.findById(tenantId, p.id)).toBeNull();
  });

  it('lists by id with filters in both paging styles', async () => {
    const { repos } = get();
    const { tenantId } = await seedTenant(repos, 0);
    const ps = [
      aProgramme(tenantId),
      aProgramme(tenantId, { type: 'learnership' }),
      aProgramme(tenantId, { status: 'retired' }),
    ];
    for (const p of ps) await repos.programmes.insert(p);
    const first = await repos.programmes.list(tenantId, {}, { kind: 'cursor', after: null, limit: 2 });
    expect(first).toMatchObject({ total: 3, hasMore: true });
    expect(first.items.map((p) => p.id)).toEqual([ps[0]!.id, ps[1]!.id]);
    const rest = await repos.programmes.list(tenantId, {}, { kind: 'cursor', after: ps[1]!.id, limit: 2 });
    expect(rest.items.map((p) => p.id)).toEqual([ps[2]!.id]);
    expect(
      (await repos.programmes.list(tenantId, { type: 'learnership' }, { kind: 'offset', offset: 0, limit: 10 })).items,
    ).toEqual([ps[1]]);
    expect(
      (await repos.programmes.list(tenantId, { status: 'active' }, { kind: 'offset', offset: 1, limit: 10 })).items,
    ).toEqual([ps[1]]);
  });
});
