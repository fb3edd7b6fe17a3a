import { expect, it } from 'vitest';
import { systemActor } from '@fundi/application';
import { ListLearnerRoster, type RosterQuery } from '@fundi/application/training';
import { aLearner } from '@fundi/domain/testing';
import { describeEachStorage } from '../testing/each-storage.js';
import { aStoredTenant, at } from './learner-fixtures.js';
import { aProgramme, anEnrolment } from '../testing/training-builders.js';

describeEachStorage('Learner list by enrolment: filters, sorts and pages (ListLearnerRoster)', (get) => {
  async function world() {
    const { repos } = get();
    const t = await aStoredTenant(repos);
    const elec = aProgramme(t.id, { code: 'ELEC-01' });
    const plumb = aProgramme(t.id, { code: 'PLUMB-02' });
    for (const p of [elec, plumb]) await repos.programmes.insert(p);
    const person = (firstName: string, lastName: string, idNumber: string | null, employer: string | null, n: number) =>
      aLearner({ tenantId: t.id, firstName, lastName, idNumber, employer, createdAt: at(n) });
    const zola = person('Zola', 'Mokoena', '9001049818080', 'Acme Engineering', 1);
    const ann = person('Ann', 'botha', '7311190013080', 'ACME mining', 2);
    const ben = person('Ben', 'Botha', null, 'Other Co', 3);
    const cara = person('Cara', 'Zulu', '8001015009087', null, 4);
    for (const l of [zola, ann, ben, cara]) await repos.learners.insert(l);
    await repos.learners.insert(aLearner({ tenantId: (await aStoredTenant(repos)).id, employer: 'Acme' }));
    await repos.enrolments.insert(anEnrolment(elec, zola.id, { startDate: '2026-02-10' }));
    await repos.enrolments.insert(anEnrolment(plumb, zola.id, { startDate: '2025-11-01', status: 'in_progress' }));
    await repos.enrolments.insert(anEnrolment(elec, ann.id, { startDate: '2026-03-31', status: 'in_progress' }));
    await repos.enrolments.insert(anEnrolment(plumb, ben.id, { startDate: '2026-04-01' }));
    const roster = new ListLearnerRoster({ repos });
    const names = async (q: Partial<RosterQuery>, offset = 0, limit = 10) => {
      const page = await roster.execute(
        systemActor(t.id),
        { sort: 'name', descending: false, ...q },
        { offset, limit },
      );
      return { names: page.items.map((r) => r.learner.firstName), total: page.total, hasMore: page.hasMore, page };
    };
    return { names };
  }

  it('filters by programme (any case), status, start period and employer (any case), together', async () => {
    const { names } = await world();
    expect((await names({})).names).toEqual(['Ann', 'Ben', 'Zola', 'Cara']);
    expect((await names({ programmeCode: 'elec-01' })).names).toEqual(['Ann', 'Zola']);
    expect((await names({ programmeCode: 'NOPE' })).total).toBe(0);
    expect((await names({ status: 'in_progress' })).names).toEqual(['Ann', 'Zola']);
    expect((await names({ startFrom: '2026-01-01', startTo: '2026-03-31' })).names).toEqual(['Ann', 'Zola']);
    expect((await names({ employer: 'acme' })).names).toEqual(['Ann', 'Zola']);
    // A page past the last match still counts the matches.
    expect(await names({ employer: 'acme' }, 4)).toMatchObject({ names: [], total: 2, hasMore: false });
    expect(await names({ employer: 'acme' }, 1, 1)).toMatchObject({ names: ['Zola'], total: 2, hasMore: false });
    // One enrolment must match every enrolment filter: Zola's PLUMB-02 is in progress but started in 2025.
    expect((await names({ programmeCode: 'PLUMB-02', status: 'in_progress', startFrom: '2026-01-01' })).total).toBe(0);
    const both = await names({ programmeCode: 'Plumb-02', employer: 'ACME' });
    expect(both.names).toEqual(['Zola']);
    expect(both.page.items[0]!.enrolments.map((e) => e.programmeCode)).toEqual(['PLUMB-02']);
  });

  it('sorts by name, ID number, programme, status and start date, either way; pages stay stable', async () => {
    const { names } = await world();
    expect((await names({ descending: true })).names).toEqual(['Cara', 'Zola', 'Ben', 'Ann']);
    // Without an ID number (Ben) comes last either way.
    expect((await names({ sort: 'idNumber' })).names).toEqual(['Ann', 'Cara', 'Zola', 'Ben']);
    expect((await names({ sort: 'idNumber', descending: true })).names).toEqual(['Zola', 'Cara', 'Ann', 'Ben']);
    // A learner's first programme in the sort's direction, ties by id (Zola was added first); no enrolment last.
    expect((await names({ sort: 'programme' })).names).toEqual(['Zola', 'Ann', 'Ben', 'Cara']);
    expect((await names({ sort: 'programme', descending: true })).names).toEqual(['Zola', 'Ben', 'Ann', 'Cara']);
    expect((await names({ sort: 'start' })).names).toEqual(['Zola', 'Ann', 'Ben', 'Cara']);
    expect((await names({ sort: 'status' })).names).toEqual(['Zola', 'Ben', 'Ann', 'Cara']);
    // Every row once across the pages, with the right counts.
    const first = await names({ sort: 'programme' }, 0, 3);
    const second = await names({ sort: 'programme' }, 3, 3);
    expect([first.total, first.hasMore, second.total, second.hasMore]).toEqual([4, true, 4, false]);
    expect([...first.names, ...second.names]).toEqual(['Zola', 'Ann', 'Ben', 'Cara']);
    const a = await names({}, 0, 2);
    const b = await names({}, 2, 2);
    expect([...a.names, ...b.names]).toEqual(['Ann', 'Ben', 'Zola', 'Cara']);
    expect(a.page.items.find((r) => r.learner.firstName === 'Zola')).toBeUndefined();
    expect(b.page.items[0]!.enrolments.map((e) => e.programmeCode).sort()).toEqual(['ELEC-01', 'PLUMB-02']);
  });
});
