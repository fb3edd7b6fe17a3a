import { describe, expect, it } from 'vitest';
import { anActor } from '../testing/fakes.js';
import { aWorld } from '../testing/training-world.js';
import { EraseLearner } from '../learners/erase-learner.js';
import { GetModeration } from './get-moderation.js';
import { ModerateAssessment } from './moderate-assessment.js';
import { RecordAssessment } from './record-assessment.js';

async function enrolled() {
  const w = aWorld();
  const learnerId = await w.learner();
  await w.programme('P1', ['M1', 'M2']);
  const enrolmentId = await w.enrolment(learnerId, 'P1', '2026-02-01');
  return {
    w,
    learnerId,
    enrolmentId,
    record: (over: Record<string, unknown>) =>
      new RecordAssessment(w.deps).execute(w.actor, {
        learnerId,
        moduleCode: 'M1',
        assessmentType: 'summative',
        outcome: 'C',
        assessmentDate: '2026-03-01',
        ...over,
      }),
  };
}

describe('RecordAssessment', () => {
  it('takes the assessor as assessorEmail, or by its older name assessorId; two different ones are refused', async () => {
    const { record } = await enrolled();
    expect(await record({ assessorEmail: 'thabo@provider.co.za' })).toMatchObject({
      assessorEmail: 'thabo@provider.co.za',
      assessorId: 'thabo@provider.co.za',
    });
    expect(await record({ assessorEmail: 'a@provider.co.za', assessorId: 'a@provider.co.za' })).toMatchObject({
      assessorEmail: 'a@provider.co.za',
    });
    await expect(record({ assessorEmail: 'a@provider.co.za', assessorId: 'b@provider.co.za' })).rejects.toMatchObject({
      kind: 'invalid',
      details: [{ field: 'assessorEmail', message: expect.stringContaining('assessorId') }],
    });
    await expect(record({ assessorEmail: 'not-an-email' })).rejects.toMatchObject({
      details: [expect.objectContaining({ field: 'assessorEmail' })],
    });
  });

  it('records against the open enrolment with both events, the audit entry and the assessor', async () => {
    const { w, learnerId, enrolmentId, record } = await enrolled();
    const a = await record({ assessorId: 'sipho@provider.co.za' });
    expect(a).toMatchObject({
      enrolmentId,
      programmeCode: 'P1',
      assessorId: 'sipho@provider.co.za',
      recordedBy: w.actor.id,
      effectiveOutcome: 'C',
      moderation: null,
    });
    const events = await w.deps.repos.outbox.list(w.tenantId, {
      types: ['assessment.recorded', 'assessment.completed'],
      limit: 10,
    });
    expect(events.map((e) => e.type)).toEqual(['assessment.recorded', 'assessment.completed']);
    expect(events[1]!.data).toEqual({
      assessmentId: a.id,
      learnerId,
      enrolmentId,
      moduleCode: 'M1',
      outcome: 'C',
      assessmentType: 'summative',
      assessmentDate: '2026-03-01',
    });
    expect((await w.deps.repos.audit.list(w.tenantId, { resourceId: a.id, limit: 5 }))[0]!.action).toBe(
      'assessment.recorded',
    );
  });

  it('refuses dates in the future or before the enrolment start, and modules outside open enrolments', async () => {
    const { w, enrolmentId, record } = await enrolled();
    await expect(record({ assessmentDate: '2026-06-02' })).rejects.toMatchObject({
      details: [{ field: 'assessmentDate', message: 'must not be in the future' }],
    });
    await expect(record({ assessmentDate: '2026-01-31' })).rejects.toMatchObject({
      details: [{ field: 'assessmentDate' }],
    });
    await expect(record({ moduleCode: 'X9' })).rejects.toMatchObject({
      code: 'module_not_enrolled',
      details: [{ field: 'moduleCode' }],
    });
    await w.move(enrolmentId, 'withdrawn');
    await expect(record({})).rejects.toMatchObject({ code: 'module_not_enrolled' });
    await expect(record({ enrolmentId })).rejects.toMatchObject({ details: [{ field: 'enrolmentId' }] });
  });

  it('picks the most recent open enrolment with the module, unless enrolmentId says otherwise', async () => {
    const { w, learnerId, enrolmentId, record } = await enrolled();
    await w.programme('P2', ['M1']);
    const newer = await w.enrolment(learnerId, 'P2', '2026-04-01');
    expect((await record({ assessmentDate: '2026-05-01' })).enrolmentId).toBe(newer);
    expect((await record({ enrolmentId })).enrolmentId).toBe(enrolmentId);
  });

  it('refuses unknown and erased learners', async () => {
    const { w, learnerId, record } = await enrolled();
    await expect(record({ learnerId: 'lrn_00000000000000000000000000' })).rejects.toMatchObject({
      code: 'unknown_learner',
    });
    await new EraseLearner(w.deps).execute(w.actor, learnerId);
    await expect(record({})).rejects.toMatchObject({ details: [{ field: 'learnerId', message: 'unknown learner' }] });
  });
});

describe('ModerateAssessment', () => {
  it('refuses the assessor as moderator, by key and by email', async () => {
    const { w, record } = await enrolled();
    const a = await record({ assessorId: 'Sipho@provider.co.za' });
    const moderate = new ModerateAssessment(w.deps);
    await expect(moderate.execute(w.actor, a.id, { decision: 'upheld', notes: 'ok' })).rejects.toMatchObject({
      kind: 'forbidden',
      code: 'moderator_is_assessor',
    });
    await expect(
      moderate.execute(anActor(w.tenantId), a.id, {
        decision: 'upheld',
        notes: 'ok',
        moderatorId: 'sipho@provider.co.za',
      }),
    ).rejects.toMatchObject({ code: 'moderator_is_assessor' });
  });

  it('records one moderation with its event; a second is a conflict', async () => {
    const { w, record } = await enrolled();
    const a = await record({ outcome: 'NYC' });
    const moderator = anActor(w.tenantId, { name: 'Moderation desk' });
    const m = await new ModerateAssessment(w.deps).execute(moderator, a.id, {
      decision: 'overturned',
      notes: 'competent after all',
      moderatorEmail: 'mod@provider.co.za',
    });
    expect(m).toMatchObject({
      assessmentId: a.id,
      moderatedBy: moderator.id,
      moderatorEmail: 'mod@provider.co.za',
      originalOutcome: 'NYC',
      effectiveOutcome: 'C',
    });
    expect(await new GetModeration(w.deps).execute(w.actor, a.id)).toEqual(m);
    const [event] = await w.deps.repos.outbox.list(w.tenantId, { types: ['moderation.completed'], limit: 5 });
    expect(event!.data).toEqual({
      assessmentId: a.id,
      learnerId: a.learnerId,
      enrolmentId: a.enrolmentId,
      moduleCode: a.moduleCode,
      decision: 'overturned',
      notes: 'competent after all',
      moderatorEmail: 'mod@provider.co.za',
      moderatedBy: { type: 'api_key', id: moderator.id, name: 'Moderation desk' },
      effectiveOutcome: 'C',
    });
    await expect(
      new ModerateAssessment(w.deps).execute(anActor(w.tenantId), a.id, { decision: 'upheld', notes: 'again' }),
    ).rejects.toMatchObject({ code: 'already_moderated' });
  });

  it('validates the decision and notes, and 404s an unknown assessment or moderation', async () => {
    const { w, record } = await enrolled();
    const a = await record({});
    const moderate = new ModerateAssessment(w.deps);
    await expect(moderate.execute(anActor(w.tenantId), a.id, { decision: 'maybe', notes: ' ' })).rejects.toMatchObject({
      details: [{ field: 'decision' }, { field: 'notes' }],
    });
    await expect(
      moderate.execute(anActor(w.tenantId), 'asm_00000000000000000000000000', { decision: 'upheld', notes: 'x' }),
    ).rejects.toMatchObject({ kind: 'not_found' });
    await expect(new GetModeration(w.deps).execute(w.actor, a.id)).rejects.toMatchObject({
      kind: 'not_found',
      code: 'moderation_not_found',
    });
  });
});
