import { describe, expect, it } from 'vitest';
import { aWorld } from '../testing/training-world.js';
import { CreateProgramme } from './create-programme.js';
import { DeleteProgramme } from './delete-programme.js';
import { GetProgramme } from './get-programme.js';
import { RetireProgramme } from './retire-programme.js';
import { UpdateProgramme } from './update-programme.js';
import { EnrolLearner } from '../enrolments/enrol-learner.js';
import { GetEnrolment } from '../enrolments/get-enrolment.js';
import { EraseLearner } from '../learners/erase-learner.js';

const modules = (...codes: string[]) => codes.map((code) => ({ code, name: `Module ${code}`, kind: 'knowledge' }));

describe('programme catalogue', () => {
  it('validates every field and module codes unique within the programme', async () => {
    const w = aWorld();
    await expect(
      new CreateProgramme(w.deps).execute(w.actor, {
        code: 'bad code!',
        name: '',
        type: 'degree',
        nqfLevel: 11,
        modules: modules('A', 'A'),
      }),
    ).rejects.toMatchObject({
      kind: 'invalid',
      details: [
        { field: 'code' },
        { field: 'name' },
        { field: 'type' },
        { field: 'nqfLevel' },
        { field: 'modules.1.code' },
      ],
    });
  });

  it('has unique codes per tenant, found by id or by code, with an audit entry', async () => {
    const w = aWorld();
    const p = await new CreateProgramme(w.deps).execute(w.actor, {
      code: 'P1',
      name: 'One',
      type: 'learnership',
      modules: modules('A'),
    });
    await expect(
      new CreateProgramme(w.deps).execute(w.actor, {
        code: 'P1',
        name: 'Two',
        type: 'learnership',
        modules: modules('A'),
      }),
    ).rejects.toMatchObject({ code: 'duplicate_programme_code' });
    expect(await new GetProgramme(w.deps).execute(w.actor, 'P1')).toEqual(
      await new GetProgramme(w.deps).execute(w.actor, p.id),
    );
    expect((await w.deps.repos.audit.list(w.tenantId, { resourceId: p.id, limit: 5 }))[0]!.action).toBe(
      'programme.created',
    );
  });

  it('allows adding and renaming modules but not removing an assessed one', async () => {
    const w = aWorld();
    await w.programme('P1', ['A', 'B']);
    const learnerId = await w.learner();
    await w.enrolment(learnerId, 'P1');
    await w.assess(learnerId, 'A');
    const update = new UpdateProgramme(w.deps);
    const renamed = await update.execute(w.actor, 'P1', {
      modules: [
        { code: 'A', name: 'Renamed', kind: 'practical' },
        { code: 'B', name: 'B', kind: 'knowledge' },
        { code: 'C', name: 'C', kind: 'workplace' },
      ],
    });
    expect(renamed.modules.map((m) => m.name)).toEqual(['Renamed', 'B', 'C']);
    expect((await update.execute(w.actor, 'P1', { modules: modules('A', 'B') })).modules).toHaveLength(2);
    await expect(update.execute(w.actor, 'P1', { modules: modules('B') })).rejects.toMatchObject({
      code: 'module_has_assessments',
      meta: { modules: ['A'] },
    });
  });

  it('retires (no new enrolments) and deletes only while unused', async () => {
    const w = aWorld();
    await w.programme('P1', ['A']);
    await w.programme('P2', ['A']);
    const learnerId = await w.learner();
    await w.enrolment(learnerId, 'P1');
    await expect(new DeleteProgramme(w.deps).execute(w.actor, 'P1')).rejects.toMatchObject({
      code: 'programme_in_use',
    });
    const retired = await new RetireProgramme(w.deps).execute(w.actor, 'P2');
    expect(retired).toMatchObject({ status: 'retired', retiredAt: '2026-06-01T08:00:00.000Z' });
    await expect(
      new EnrolLearner(w.deps).execute(w.actor, { learnerId, programmeCode: 'P2', startDate: '2026-01-01' }),
    ).rejects.toMatchObject({ code: 'programme_retired' });
    await new DeleteProgramme(w.deps).execute(w.actor, 'P2');
    await expect(new GetProgramme(w.deps).execute(w.actor, 'P2')).rejects.toMatchObject({ kind: 'not_found' });
  });
});

describe('EnrolLearner', () => {
  it('names unknown learner and programme as invalid fields; one open enrolment per programme', async () => {
    const w = aWorld();
    await w.programme('P1', ['A']);
    const enrol = new EnrolLearner(w.deps);
    await expect(
      enrol.execute(w.actor, { learnerId: 'lrn_x', programmeCode: 'NOPE', startDate: '2026-01-01' }),
    ).rejects.toMatchObject({
      details: [
        { field: 'learnerId', message: 'unknown learner' },
        { field: 'programmeCode', message: 'unknown programme' },
      ],
    });
    const learnerId = await w.learner();
    await expect(
      enrol.execute(w.actor, {
        learnerId,
        programmeCode: 'P1',
        startDate: '2026-02-01',
        expectedEndDate: '2026-01-31',
      }),
    ).rejects.toMatchObject({ details: [{ field: 'expectedEndDate' }] });
    const id = await w.enrolment(learnerId, 'P1');
    await expect(w.enrolment(learnerId, 'P1')).rejects.toMatchObject({ code: 'open_enrolment_exists' });
    await w.move(id, 'withdrawn');
    expect(await w.enrolment(learnerId, 'P1')).toMatch(/^enr_/);
  });

  it("keeps an erased learner's enrolments but refuses new ones", async () => {
    const w = aWorld();
    await w.programme('P1', ['A']);
    await w.programme('P2', ['A']);
    const learnerId = await w.learner();
    const id = await w.enrolment(learnerId, 'P1');
    await new EraseLearner(w.deps).execute(w.actor, learnerId);
    expect(await new GetEnrolment(w.deps).execute(w.actor, id)).toMatchObject({ id, learnerId, status: 'enrolled' });
    await expect(w.enrolment(learnerId, 'P2')).rejects.toMatchObject({
      details: [{ field: 'learnerId', message: 'unknown learner' }],
    });
  });
});
