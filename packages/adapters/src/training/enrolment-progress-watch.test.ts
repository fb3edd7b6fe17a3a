import { expect, it } from 'vitest';
import { describeEachStorage } from '../testing/each-storage.js';
import { aProgramme, anAssessment, anEnrolment, seedTenant } from '../testing/training-builders.js';

describeEachStorage('EnrolmentRepository: enrolments at risk and due (the overview)', (get) => {
  const today = '2026-06-15';
  const since = '2026-05-16';

  async function world() {
    const { repos } = get();
    const { tenantId, learnerIds } = await seedTenant(repos, 4);
    const [p, p2] = [aProgramme(tenantId), aProgramme(tenantId)];
    for (const x of [p, p2]) await repos.programmes.insert(x);
    const [l0, l1, l2, l3] = learnerIds as [string, string, string, string];
    const e = {
      overdueActive: anEnrolment(p, l0, { expectedEndDate: '2026-06-01' }),
      overdueFirst: anEnrolment(p, l1, { expectedEndDate: '2026-05-20' }),
      idle: anEnrolment(p, l2, { startDate: '2026-01-10', expectedEndDate: '2026-12-31' }),
      idleNever: anEnrolment(p, l3, { startDate: '2026-02-01' }),
      fresh: anEnrolment(p2, l0, { startDate: '2026-06-01', expectedEndDate: '2026-07-01' }),
      recent: anEnrolment(p2, l1, { startDate: '2026-01-10', expectedEndDate: today }),
      withEvidence: anEnrolment(p2, l2, { startDate: '2026-01-10', expectedEndDate: '2026-07-16' }),
      closed: anEnrolment(p2, l3, { expectedEndDate: '2026-01-01', status: 'withdrawn' }),
    };
    for (const x of Object.values(e)) await repos.enrolments.insert(x);
    await repos.assessments.insert(anAssessment(e.overdueActive, { assessmentDate: '2026-06-10' }));
    await repos.assessments.insert(anAssessment(e.idle, { assessmentDate: '2026-03-01' }));
    await repos.assessments.insert(anAssessment(e.idle, { assessmentDate: '2026-02-01', moduleCode: 'M2' }));
    await repos.assessments.insert(anAssessment(e.recent, { assessmentDate: '2026-05-20' }));
    return { repos, tenantId, e };
  }

  it('finds open enrolments past their expected end or idle for the period, counts them and lists the first', async () => {
    const { repos, tenantId, e } = await world();
    const q = { today, since, active: [e.withEvidence.id], limit: 10 };
    const found = await repos.enrolments.atRisk(tenantId, q);
    expect({ enrolments: found.enrolments, learners: found.learners }).toEqual({ enrolments: 4, learners: 4 });
    expect(found.items.map((i) => [i.enrolment.id, i.reason, i.lastAssessed])).toEqual([
      [e.overdueFirst.id, 'overdue', null],
      [e.overdueActive.id, 'overdue', '2026-06-10'],
      [e.idle.id, 'idle', '2026-03-01'],
      [e.idleNever.id, 'idle', null],
    ]);
    expect(found.items[0]!.enrolment).toEqual(e.overdueFirst);
    const first = await repos.enrolments.atRisk(tenantId, { ...q, limit: 3 });
    expect(first.enrolments).toBe(4);
    expect(first.items.map((i) => i.enrolment.id)).toEqual([e.overdueFirst.id, e.overdueActive.id, e.idle.id]);
    // Without the other activity the enrolment with evidence is idle too (one more enrolment, same learners).
    const none = await repos.enrolments.atRisk(tenantId, { ...q, active: [] });
    expect({ enrolments: none.enrolments, learners: none.learners }).toEqual({ enrolments: 5, learners: 4 });
    expect(await repos.enrolments.atRisk('ten_other', q)).toEqual({ enrolments: 0, learners: 0, items: [] });
  });

  it('counts and lists open enrolments due in a window, earliest first', async () => {
    const { repos, tenantId, e } = await world();
    const due = await repos.enrolments.dueBetween(tenantId, { from: today, to: '2026-07-15', limit: 10 });
    expect(due.total).toBe(2);
    expect(due.items).toEqual([e.recent, e.fresh]);
    const one = await repos.enrolments.dueBetween(tenantId, { from: today, to: '2026-07-15', limit: 1 });
    expect({ total: one.total, ids: one.items.map((x) => x.id) }).toEqual({ total: 2, ids: [e.recent.id] });
    expect(await repos.enrolments.dueBetween('ten_other', { from: today, to: '2026-07-15', limit: 10 })).toEqual({
      total: 0,
      items: [],
    });
  });
});
