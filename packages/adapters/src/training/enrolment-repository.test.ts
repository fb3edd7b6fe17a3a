import { expect, it } from 'vitest';
import { newId } from '@fundi/domain';
import { describeEachStorage } from '../testing/each-storage.js';
import { aProgramme, anEnrolment, seedTenant } from '../testing/training-builders.js';

describeEachStorage('EnrolmentRepository contract', (get) => {
  async function world(learners = 2) {
    const { repos, uow } = get();
    const seeded = await seedTenant(repos, learners);
    const p = aProgramme(seeded.tenantId);
    await repos.programmes.insert(p);
    return { repos, uow, p, ...seeded };
  }

  it('inserts and finds; another tenant sees nothing', async () => {
    const { repos, p, tenantId, learnerIds } = await world();
    const e = anEnrolment(p, learnerIds[0]!, { fundingSource: 'MERSETA', expectedEndDate: '2026-12-31' });
    await repos.enrolments.insert(e);
    expect(await repos.enrolments.findById(tenantId, e.id)).toEqual(e);
    expect(await repos.enrolments.findById('ten_other', e.id)).toBeNull();
    expect(await repos.enrolments.countForProgramme(tenantId, p.id)).toBe(1);
  });

  it('allows one open enrolment per learner and programme; a closed one does not count', async () => {
    const { repos, p, tenantId, learnerIds } = await world();
    const first = anEnrolment(p, learnerIds[0]!);
    await repos.enrolments.insert(first);
    await expect(repos.enrolments.insert(anEnrolment(p, learnerIds[0]!))).rejects.toMatchObject({
      kind: 'conflict',
      code: 'open_enrolment_exists',
    });
    await repos.enrolments.insert(anEnrolment(p, learnerIds[1]!));
    await repos.enrolments.updateStatus({ ...first, status: 'withdrawn' }, 'enrolled');
    await expect(repos.enrolments.insert(anEnrolment(p, learnerIds[0]!))).resolves.toBeUndefined();
    expect(await repos.enrolments.countForProgramme(tenantId, p.id)).toBe(3);
    const counts = await repos.enrolments.statusCounts(tenantId);
    expect(counts.sort((a, b) => (a.status < b.status ? -1 : 1))).toEqual([
      { programmeId: p.id, status: 'enrolled', count: 2 },
      { programmeId: p.id, status: 'withdrawn', count: 1 },
    ]);
    expect(await repos.enrolments.statusCounts('ten_other')).toEqual([]);
  });

  it('updates the status only from the expected one', async () => {
    const { repos, p, tenantId, learnerIds } = await world();
    const e = anEnrolment(p, learnerIds[0]!);
    await repos.enrolments.insert(e);
    const done = {
      ...e,
      status: 'completed' as const,
      achievementDate: '2026-05-01',
      updatedAt: '2026-06-02T00:00:00.000Z',
    };
    await expect(repos.enrolments.updateStatus(done, 'in_progress')).rejects.toMatchObject({
      code: 'concurrent_status_change',
    });
    await repos.enrolments.updateStatus(done, 'enrolled');
    expect(await repos.enrolments.findById(tenantId, e.id)).toEqual(done);
    await expect(repos.enrolments.updateStatus({ ...done, id: 'enr_none' }, 'completed')).rejects.toMatchObject({
      kind: 'not_found',
    });
  });

  it('finds open enrolments of every tenant due on a day, by id, paging after an id', async () => {
    const { repos, p, tenantId, learnerIds } = await world();
    const p2 = aProgramme(tenantId);
    await repos.programmes.insert(p2);
    const day = '2031-07-14';
    const x = anEnrolment(p, learnerIds[0]!, { expectedEndDate: day });
    const y = anEnrolment(p, learnerIds[1]!, { expectedEndDate: day });
    const closed = anEnrolment(p2, learnerIds[1]!, { expectedEndDate: day, status: 'withdrawn' });
    const other = anEnrolment(p2, learnerIds[0]!, { expectedEndDate: '2031-07-15' });
    for (const e of [x, y, closed, other]) await repos.enrolments.insert(e);
    const [first, second] = [x, y].sort((m, n) => (m.id < n.id ? -1 : 1));
    expect(await repos.enrolments.openDueOn(day, null, 10)).toEqual([first, second]);
    expect(await repos.enrolments.openDueOn(day, null, 1)).toEqual([first]);
    expect(await repos.enrolments.openDueOn(day, first!.id, 10)).toEqual([second]);
    expect(await repos.enrolments.openDueOn('2031-07-13', null, 10)).toEqual([]);
  });

  it('lists with filters and pages; open enrolments come most recent first', async () => {
    const { repos, p, tenantId, learnerIds } = await world();
    const p2 = aProgramme(tenantId);
    await repos.programmes.insert(p2);
    const a = anEnrolment(p, learnerIds[0]!, { startDate: '2026-01-01' });
    const b = anEnrolment(p2, learnerIds[0]!, { startDate: '2026-03-01' });
    const c = anEnrolment(p, learnerIds[1]!, { startDate: '2026-02-01', status: 'withdrawn' });
    for (const e of [a, b, c]) await repos.enrolments.insert(e);
    const page = { kind: 'offset' as const, offset: 0, limit: 10 };
    expect((await repos.enrolments.list(tenantId, { learnerId: learnerIds[0] }, page)).items).toEqual([a, b]);
    expect((await repos.enrolments.list(tenantId, { programmeCode: p.code, status: 'withdrawn' }, page)).items).toEqual(
      [c],
    );
    expect(
      (await repos.enrolments.list(tenantId, { startFrom: '2026-01-15', startTo: '2026-02-01' }, page)).items,
    ).toEqual([c]);
    expect(await repos.enrolments.list(tenantId, {}, { kind: 'cursor', after: a.id, limit: 1 })).toMatchObject({
      items: [b],
      total: 3,
      hasMore: true,
    });
    expect(await repos.enrolments.openForLearner(tenantId, learnerIds[0]!)).toEqual([b, a]);
    expect(await repos.enrolments.openForLearner(tenantId, learnerIds[1]!)).toEqual([]);
    const changed = { ...b, status: 'in_progress' as const, updatedAt: '2027-01-05T10:00:00.000Z' };
    await repos.enrolments.updateStatus(changed, 'enrolled');
    expect((await repos.enrolments.list(tenantId, { updatedFrom: '2027-01-05T00:00:00.000Z' }, page)).items).toEqual([
      changed,
    ]);
    expect(
      (await repos.enrolments.list(tenantId, { updatedTo: '2027-01-04T23:59:59.999Z' }, page)).items.map((e) => e.id),
    ).toEqual([a.id, c.id]);
  });

  it('reads the enrolments of many learners at once, with the filters, by id', async () => {
    const { repos, p, tenantId, learnerIds } = await world(3);
    const p2 = aProgramme(tenantId);
    await repos.programmes.insert(p2);
    const a = anEnrolment(p, learnerIds[0]!, { startDate: '2026-01-01' });
    const b = anEnrolment(p2, learnerIds[1]!, { startDate: '2026-03-01' });
    const c = anEnrolment(p, learnerIds[1]!, { startDate: '2026-02-01', status: 'withdrawn' });
    const other = anEnrolment(p, learnerIds[2]!);
    // Inserted out of id order: the read gives them by id whatever the order they were stored in.
    for (const e of [c, other, b, a]) await repos.enrolments.insert(e);
    const byId = (xs: { id: string }[]) => [...xs].sort((x, y) => (x.id < y.id ? -1 : 1));
    expect(await repos.enrolments.ofLearners(tenantId, {}, [learnerIds[0]!, learnerIds[1]!])).toEqual(byId([a, b, c]));
    expect(await repos.enrolments.ofLearners(tenantId, { programmeCode: p.code }, [learnerIds[1]!])).toEqual([c]);
    expect(await repos.enrolments.ofLearners(tenantId, { startFrom: '2026-02-15' }, learnerIds)).toEqual([b]);
    expect(await repos.enrolments.ofLearners(tenantId, {}, [])).toEqual([]);
    expect(await repos.enrolments.ofLearners('ten_other', {}, learnerIds)).toEqual([]);
  });

  it('keeps the status history in order, within the tenant', async () => {
    const { repos, p, tenantId, learnerIds } = await world();
    const e = anEnrolment(p, learnerIds[0]!);
    await repos.enrolments.insert(e);
    const rows = [null, 'enrolled', 'in_progress'].map((from, i) => ({
      id: newId('esh'),
      tenantId,
      enrolmentId: e.id,
      from: from as 'enrolled' | null,
      to: (['enrolled', 'in_progress', 'suspended'] as const)[i]!,
      reason: i === 2 ? 'illness' : null,
      effectiveDate: '2026-02-01',
      changedBy: 'key_a',
      changedAt: '2026-06-01T08:00:00.000Z',
    }));
    for (const r of rows) await repos.enrolments.addStatusChange(r);
    expect(await repos.enrolments.history(tenantId, e.id)).toEqual(rows);
    expect(await repos.enrolments.history('ten_other', e.id)).toEqual([]);
  });

  it('rolls back with the unit of work', async () => {
    const { repos, uow, p, tenantId, learnerIds } = await world();
    const e = anEnrolment(p, learnerIds[0]!);
    await expect(
      uow.run(async (tx) => {
        await tx.enrolments.insert(e);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await repos.enrolments.findById(tenantId, e.id)).toBeNull();
  });
});
