import { expect, it } from 'vitest';
import { newId } from '@fundi/domain';
import type { ModerationSampleSnapshot } from '@fundi/domain/training';
import { describeEachStorage } from '../testing/each-storage.js';
import { aProgramme, seedTenant } from '../testing/training-builders.js';

function aSample(p: { id: string; tenantId: string; code: string }, over: Partial<ModerationSampleSnapshot> = {}) {
  return {
    id: newId('smp'),
    tenantId: p.tenantId,
    programmeId: p.id,
    programmeCode: p.code,
    from: '2026-01-01',
    to: null,
    percent: 10,
    population: 30,
    alreadyModerated: 2,
    assessmentIds: [newId('asm'), newId('asm'), newId('asm')],
    dueBy: '2026-06-15',
    drawnBy: 'key_x',
    drawnAt: '2026-06-01T08:00:00.000Z',
    ...over,
  } satisfies ModerationSampleSnapshot;
}

describeEachStorage('ModerationSampleRepository contract', (get) => {
  async function world() {
    const { repos, uow } = get();
    const { tenantId } = await seedTenant(repos, 0);
    const p1 = aProgramme(tenantId);
    const p2 = aProgramme(tenantId);
    await repos.programmes.insert(p1);
    await repos.programmes.insert(p2);
    return { repos, uow, tenantId, p1, p2 };
  }

  it('stores a sample whole (ids in sample order, empty and null fields too); another tenant sees nothing', async () => {
    const { repos, tenantId, p1 } = await world();
    const s = aSample(p1);
    const empty = aSample(p1, { from: null, to: '2026-05-31', assessmentIds: [], population: 0, alreadyModerated: 0 });
    await repos.moderationSamples.insert(s);
    await repos.moderationSamples.insert(empty);
    expect(await repos.moderationSamples.findById(tenantId, s.id)).toEqual(s);
    expect(await repos.moderationSamples.findById(tenantId, empty.id)).toEqual(empty);
    expect(await repos.moderationSamples.findById('ten_other', s.id)).toBeNull();
    expect(await repos.moderationSamples.findById(tenantId, 'smp_nope')).toBeNull();
    const other = await seedTenant(repos, 0);
    const page = await repos.moderationSamples.list(other.tenantId, {}, { kind: 'offset', offset: 0, limit: 10 });
    expect(page).toEqual({ items: [], total: 0, hasMore: false });
  });

  it('lists by id, filtered by programme, in both paging styles', async () => {
    const { repos, tenantId, p1, p2 } = await world();
    const a = aSample(p1);
    const b = aSample(p2);
    const c = aSample(p1);
    for (const s of [a, b, c]) await repos.moderationSamples.insert(s);
    const first = await repos.moderationSamples.list(tenantId, {}, { kind: 'cursor', limit: 2, after: null });
    expect(first.items.map((s) => s.id)).toEqual([a.id, b.id]);
    expect(first).toMatchObject({ total: 3, hasMore: true });
    const next = await repos.moderationSamples.list(tenantId, {}, { kind: 'cursor', limit: 2, after: b.id });
    expect(next.items).toEqual([c]);
    expect(next.hasMore).toBe(false);
    const mine = await repos.moderationSamples.list(
      tenantId,
      { programmeId: p1.id },
      { kind: 'offset', offset: 1, limit: 5 },
    );
    expect(mine).toEqual({ items: [c], total: 2, hasMore: false });
  });

  it('is written in a transaction: a failed one leaves no sample', async () => {
    const { repos, uow, tenantId, p1 } = await world();
    const s = aSample(p1);
    await expect(
      uow.run(async (tx) => {
        await tx.moderationSamples.insert(s);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await repos.moderationSamples.findById(tenantId, s.id)).toBeNull();
  });
});
