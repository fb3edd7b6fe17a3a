import { expect, it } from 'vitest';
import { describeEachStorage } from '../testing/each-storage.js';
import { aModeration, aProgramme, anAssessment, anEnrolment, seedTenant } from '../testing/training-builders.js';

describeEachStorage('AssessmentRepository contract', (get) => {
  async function world() {
    const { repos } = get();
    const { tenantId, learnerIds } = await seedTenant(repos, 2);
    const p = aProgramme(tenantId);
    await repos.programmes.insert(p);
    const e1 = anEnrolment(p, learnerIds[0]!);
    const e2 = anEnrolment(p, learnerIds[1]!);
    await repos.enrolments.insert(e1);
    await repos.enrolments.insert(e2);
    return { repos, tenantId, p, e1, e2 };
  }

  it('inserts and finds with moderation; another tenant sees nothing', async () => {
    const { repos, tenantId, e1 } = await world();
    const a = anAssessment(e1, { assessorId: 'a@b.co.za' });
    await repos.assessments.insert(a);
    expect(await repos.assessments.findById(tenantId, a.id)).toEqual(a);
    expect(await repos.assessments.findById('ten_other', a.id)).toBeNull();
    const m = aModeration(a, { moderatorEmail: 'm@b.co.za' });
    await repos.assessments.addModeration(m);
    expect(await repos.assessments.findById(tenantId, a.id)).toEqual({ ...a, moderation: m });
    await expect(repos.assessments.addModeration(aModeration(a))).rejects.toMatchObject({
      kind: 'conflict',
      code: 'already_moderated',
    });
  });

  it("finds many by id in one read, with their moderation; unknown and other tenants' ids left out", async () => {
    const { repos, tenantId, e1, e2 } = await world();
    const a = anAssessment(e1);
    const b = anAssessment(e2, { moduleCode: 'M2' });
    for (const x of [a, b]) await repos.assessments.insert(x);
    const m = aModeration(b);
    await repos.assessments.addModeration(m);
    const found = await repos.assessments.findByIds(tenantId, [b.id, 'ass_unknown', a.id]);
    expect(found.sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual(
      [a, { ...b, moderation: m }].sort((x, y) => (x.id < y.id ? -1 : 1)),
    );
    expect(await repos.assessments.findByIds('ten_other', [a.id, b.id])).toEqual([]);
    expect(await repos.assessments.findByIds(tenantId, [])).toEqual([]);
  });

  it('gives the summative results of enrolments and of a programme period', async () => {
    const { repos, tenantId, p, e1, e2 } = await world();
    const s1 = anAssessment(e1, { assessmentDate: '2026-02-01' });
    const f1 = anAssessment(e1, { assessmentType: 'formative' });
    const s2 = anAssessment(e2, { moduleCode: 'M2', assessmentDate: '2026-04-01' });
    for (const a of [s1, f1, s2]) await repos.assessments.insert(a);
    const m = aModeration(s2);
    await repos.assessments.addModeration(m);
    expect(await repos.assessments.summativeForEnrolments(tenantId, [e1.id])).toEqual([s1]);
    expect(await repos.assessments.summativeForEnrolments(tenantId, [e1.id, e2.id])).toEqual([
      s1,
      { ...s2, moderation: m },
    ]);
    expect(await repos.assessments.summativeForEnrolments(tenantId, [])).toEqual([]);
    expect(await repos.assessments.summativeForProgramme(tenantId, p.id, { from: '2026-03-01', to: null })).toEqual([
      { ...s2, moderation: m },
    ]);
    expect(await repos.assessments.summativeForProgramme(tenantId, p.id, { from: null, to: '2026-03-01' })).toEqual([
      s1,
    ]);
    expect((await repos.assessments.assessedModules(tenantId, p.id)).sort()).toEqual(['M1', 'M2']);
  });

  it('reads every result (any type) of many enrolments at once, by id', async () => {
    const { repos, tenantId, e1, e2 } = await world();
    const s1 = anAssessment(e1, { assessmentDate: '2026-02-01' });
    const f1 = anAssessment(e1, { assessmentType: 'formative' });
    const s2 = anAssessment(e2, { moduleCode: 'M2' });
    for (const a of [s2, f1, s1]) await repos.assessments.insert(a);
    const m = aModeration(f1);
    await repos.assessments.addModeration(m);
    const byId = (xs: { id: string }[]) => [...xs].sort((x, y) => (x.id < y.id ? -1 : 1));
    expect(await repos.assessments.ofEnrolments(tenantId, [e1.id])).toEqual(byId([s1, { ...f1, moderation: m }]));
    expect(await repos.assessments.ofEnrolments(tenantId, [e2.id, e1.id])).toEqual(
      byId([s1, { ...f1, moderation: m }, s2]),
    );
    expect(await repos.assessments.ofEnrolments(tenantId, [])).toEqual([]);
    expect(await repos.assessments.ofEnrolments('ten_other', [e1.id, e2.id])).toEqual([]);
  });

  it('filters on when an assessment last changed: its moderation, else its creation', async () => {
    const { repos, tenantId, e1 } = await world();
    const old = anAssessment(e1, { createdAt: '2026-01-10T08:00:00.000Z' });
    const moderatedLater = anAssessment(e1, { moduleCode: 'M2', createdAt: '2026-01-11T08:00:00.000Z' });
    const recent = anAssessment(e1, { createdAt: '2026-02-01T08:00:00.000Z' });
    for (const x of [old, moderatedLater, recent]) await repos.assessments.insert(x);
    const m = aModeration(moderatedLater, { moderatedAt: '2026-02-05T09:30:00.000Z' });
    await repos.assessments.addModeration(m);
    const all = { kind: 'offset' as const, offset: 0, limit: 10 };
    const ids = async (f: { updatedFrom?: string; updatedTo?: string }) =>
      (await repos.assessments.list(tenantId, f, all)).items.map((a) => a.id);
    expect(await ids({ updatedFrom: '2026-02-01T00:00:00.000Z' })).toEqual([moderatedLater.id, recent.id]);
    expect(await ids({ updatedTo: '2026-01-31T23:59:59.999Z' })).toEqual([old.id]);
    expect(await ids({ updatedFrom: '2026-02-05T09:30:00.000Z', updatedTo: '2026-02-05T09:30:00.000Z' })).toEqual([
      moderatedLater.id,
    ]);
  });

  it('lists with every filter and both paging styles', async () => {
    const { repos, tenantId, e1, e2 } = await world();
    const a = anAssessment(e1, { outcome: 'NYC', assessmentDate: '2026-02-01' });
    const b = anAssessment(e1, { moduleCode: 'M2', assessmentType: 'formative', assessmentDate: '2026-03-01' });
    const c = anAssessment(e2, { assessmentDate: '2026-04-01' });
    for (const x of [a, b, c]) await repos.assessments.insert(x);
    const m = aModeration(c);
    await repos.assessments.addModeration(m);
    const all = { kind: 'offset' as const, offset: 0, limit: 10 };
    expect((await repos.assessments.list(tenantId, { learnerId: e1.learnerId }, all)).items).toEqual([a, b]);
    expect((await repos.assessments.list(tenantId, { enrolmentId: e2.id }, all)).items).toEqual([
      { ...c, moderation: m },
    ]);
    expect((await repos.assessments.list(tenantId, { moduleCode: 'M2' }, all)).items).toEqual([b]);
    expect((await repos.assessments.list(tenantId, { outcome: 'NYC' }, all)).items).toEqual([a]);
    expect((await repos.assessments.list(tenantId, { assessmentType: 'formative' }, all)).items).toEqual([b]);
    expect((await repos.assessments.list(tenantId, { from: '2026-02-15', to: '2026-03-31' }, all)).items).toEqual([b]);
    expect(await repos.assessments.list(tenantId, {}, { kind: 'cursor', after: a.id, limit: 1 })).toMatchObject({
      items: [b],
      total: 3,
      hasMore: true,
    });
    expect(await repos.assessments.list(tenantId, {}, { kind: 'offset', offset: 2, limit: 5 })).toMatchObject({
      items: [{ ...c, moderation: m }],
      total: 3,
      hasMore: false,
    });
    expect((await repos.assessments.list('ten_other', {}, all)).total).toBe(0);
  });
});
