import { describe, expect, it } from 'vitest';
import { anActor } from '../testing/fakes.js';
import { aWorld } from '../testing/training-world.js';
import { ModerateAssessment } from '../assessments/moderate-assessment.js';
import { GetEnrolment } from './get-enrolment.js';

async function started(modules = ['M1', 'M2', 'M3']) {
  const w = aWorld();
  const learnerId = await w.learner();
  await w.programme('P1', modules);
  const id = await w.enrolment(learnerId, 'P1');
  await w.move(id, 'in_progress');
  return { w, learnerId, id, get: () => new GetEnrolment(w.deps).execute(w.actor, id) };
}

describe('completion and progress', () => {
  it('refuses completion listing every module without a competent summative result', async () => {
    const { w, learnerId, id } = await started();
    await w.assess(learnerId, 'M1');
    await w.assess(learnerId, 'M2', { outcome: 'NYC' });
    await w.assess(learnerId, 'M3', { assessmentType: 'formative' });
    await expect(w.move(id, 'completed')).rejects.toMatchObject({
      code: 'modules_incomplete',
      meta: { missingModules: ['M2', 'M3'] },
    });
  });

  it('completes once all are competent and records the achievement date', async () => {
    const { w, learnerId, id, get } = await started(['M1', 'M2']);
    await w.assess(learnerId, 'M1');
    await w.assess(learnerId, 'M2', { outcome: 'NYC', assessmentDate: '2026-02-01' });
    await w.assess(learnerId, 'M2', { assessmentDate: '2026-02-15' });
    const done = await w.move(id, 'completed', { effectiveDate: '2026-05-20' });
    expect(done).toMatchObject({
      status: 'completed',
      achievementDate: '2026-05-20',
      progress: { competent: 2, total: 2 },
    });
    expect((await get()).achievementDate).toBe('2026-05-20');
  });

  it('counts the latest summative result by date, then by creation', async () => {
    const { w, learnerId, get } = await started(['M1']);
    await w.assess(learnerId, 'M1', { outcome: 'C', assessmentDate: '2026-04-01' });
    const older = await w.assess(learnerId, 'M1', { outcome: 'NYC', assessmentDate: '2026-03-01' });
    expect((await get()).progress.modules[0]).toMatchObject({ latestOutcome: 'C' });
    const sameDay = await w.assess(learnerId, 'M1', { outcome: 'NYC', assessmentDate: '2026-04-01' });
    expect((await get()).progress.modules[0]).toMatchObject({ latestOutcome: 'NYC', assessmentId: sameDay });
    expect(older).not.toBe(sameDay);
  });

  it('moderation overturning a result changes progress both ways, keeping both records', async () => {
    const { w, learnerId, id, get } = await started(['M1', 'M2']);
    const c = await w.assess(learnerId, 'M1');
    const nyc = await w.assess(learnerId, 'M2', { outcome: 'NYC' });
    const moderator = anActor(w.tenantId);
    const moderate = new ModerateAssessment(w.deps);
    await moderate.execute(moderator, c, { decision: 'overturned', notes: 'no evidence' });
    expect((await get()).progress).toMatchObject({
      competent: 0,
      modules: [
        { latestOutcome: 'NYC', moderated: true },
        { latestOutcome: 'NYC', moderated: false },
      ],
    });
    await moderate.execute(moderator, nyc, { decision: 'overturned', notes: 'evidence was sufficient' });
    await expect(w.move(id, 'completed')).rejects.toMatchObject({ meta: { missingModules: ['M1'] } });
    const stored = await w.deps.repos.assessments.findById(w.tenantId, nyc);
    expect(stored).toMatchObject({ outcome: 'NYC', moderation: { decision: 'overturned' } });
    expect((await get()).progress.competent).toBe(1);
  });
});
