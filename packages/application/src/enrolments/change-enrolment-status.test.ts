import { describe, expect, it } from 'vitest';
import { ENROLMENT_MOVES, ENROLMENT_STATUSES, type EnrolmentStatus } from '@fundi/domain/training';
import { aWorld, type World } from '../testing/training-world.js';
import { GetEnrolmentHistory } from './enrolment-history.js';

/** The shortest way from `enrolled` to each status, through the use case. */
const PATHS: Record<EnrolmentStatus, EnrolmentStatus[]> = {
  enrolled: [],
  in_progress: ['in_progress'],
  suspended: ['in_progress', 'suspended'],
  completed: ['in_progress', 'completed'],
  withdrawn: ['withdrawn'],
};

async function enrolmentIn(status: EnrolmentStatus): Promise<{ w: World; id: string }> {
  const w = aWorld();
  const learnerId = await w.learner();
  await w.programme('P1', ['M1']);
  const id = await w.enrolment(learnerId, 'P1');
  await w.assess(learnerId, 'M1');
  for (const s of PATHS[status]) await w.move(id, s);
  return { w, id };
}

const pairs = ENROLMENT_STATUSES.flatMap((from) =>
  ENROLMENT_STATUSES.map((to) => ({ from, to, allowed: ENROLMENT_MOVES[from].includes(to) })),
);

describe('ChangeEnrolmentStatus: the enrolment state machine', () => {
  it('allows exactly the documented moves', () => {
    expect(pairs.filter((p) => p.allowed).map((p) => `${p.from}->${p.to}`)).toEqual([
      'enrolled->in_progress',
      'enrolled->withdrawn',
      'in_progress->suspended',
      'in_progress->completed',
      'in_progress->withdrawn',
      'suspended->in_progress',
      'suspended->withdrawn',
    ]);
  });

  it.each(pairs.filter((p) => p.allowed))('moves $from -> $to, with history, audit and event', async ({ from, to }) => {
    const { w, id } = await enrolmentIn(from);
    const view = (await w.move(id, to, { reason: 'because' })) as { status: string };
    expect(view.status).toBe(to);
    const history = await new GetEnrolmentHistory(w.deps).execute(w.actor, id);
    expect(history.changes.at(-1)).toMatchObject({
      from,
      to,
      reason: 'because',
      changedBy: w.actor.id,
      effectiveDate: '2026-06-01',
    });
    const events = await w.deps.repos.outbox.list(w.tenantId, { types: ['enrolment.status_changed'], limit: 50 });
    expect(events.at(-1)!.data).toMatchObject({ enrolmentId: id, from, to, reason: 'because' });
    const audit = await w.deps.repos.audit.list(w.tenantId, { resourceId: id, limit: 1 });
    expect(audit[0]).toMatchObject({ action: 'enrolment.status_changed', details: { from, to } });
  });

  it.each(pairs.filter((p) => !p.allowed))(
    'refuses $from -> $to with 409 naming both statuses, changing nothing',
    async ({ from, to }) => {
      const { w, id } = await enrolmentIn(from);
      const before = await w.deps.repos.outbox.list(w.tenantId, { limit: 100 });
      await expect(w.move(id, to)).rejects.toMatchObject({
        kind: 'conflict',
        code: 'illegal_status_change',
        meta: { currentStatus: from, requestedStatus: to },
      });
      expect(await w.deps.repos.outbox.list(w.tenantId, { limit: 100 })).toHaveLength(before.length);
      expect((await w.deps.repos.enrolments.findById(w.tenantId, id))!.status).toBe(from);
    },
  );

  it('rejects an unknown status, a future effective date and an unknown enrolment', async () => {
    const { w, id } = await enrolmentIn('enrolled');
    await expect(w.move(id, 'graduated')).rejects.toMatchObject({ kind: 'invalid', details: [{ field: 'status' }] });
    await expect(w.move(id, 'in_progress', { effectiveDate: '2026-06-02' })).rejects.toMatchObject({
      kind: 'invalid',
      details: [{ field: 'effectiveDate' }],
    });
    await expect(w.move('enr_00000000000000000000000000', 'in_progress')).rejects.toMatchObject({ kind: 'not_found' });
  });
});
