import { describe, expect, it } from 'vitest';
import { sha256Secrets } from '@fundi/testing';
import { anActor } from '../testing/fakes.js';
import { aWorld } from '../testing/training-world.js';
import { ModerateAssessment } from './moderate-assessment.js';
import { SampleForModeration } from './moderation-sample.js';

async function population(count: number) {
  const w = aWorld();
  await w.programme('P1', ['M1', 'M2']);
  const ids: string[] = [];
  for (let n = 0; n < 5; n++) {
    const learnerId = await w.learner(n);
    await w.enrolment(learnerId, 'P1');
    for (let i = 0; i < count / 5; i++)
      ids.push(
        await w.assess(learnerId, i % 2 ? 'M2' : 'M1', {
          assessmentDate: `2026-03-${String(10 + i).padStart(2, '0')}`,
        }),
      );
    await w.assess(learnerId, 'M1', { assessmentType: 'formative' });
  }
  return { w, ids, sample: new SampleForModeration({ ...w.deps, secrets: sha256Secrets() }) };
}

describe('SampleForModeration', () => {
  it("is reproducible, sized ceil(percent%), and drawn from the period's summative assessments", async () => {
    const { w, ids, sample } = await population(20);
    const first = await sample.execute(w.actor, { programmeCode: 'P1', percent: 25 });
    const again = await sample.execute(w.actor, { programmeCode: 'P1', percent: 25 });
    expect(first.population).toBe(20);
    expect(first.sample).toHaveLength(5);
    expect(again.sample.map((a) => a.id)).toEqual(first.sample.map((a) => a.id));
    expect(first.sample.every((a) => ids.includes(a.id))).toBe(true);
    const other = await sample.execute(w.actor, { programmeCode: 'P1', percent: 26 });
    expect(other.sample).toHaveLength(6);
    const period = await sample.execute(w.actor, { programmeCode: 'P1', from: '2026-03-10', to: '2026-03-11' });
    expect(period).toMatchObject({ population: 10, percent: 10, from: '2026-03-10', to: '2026-03-11' });
    expect(period.sample).toHaveLength(1);
  });

  it('counts the already moderated ones', async () => {
    const { w, ids, sample } = await population(10);
    await new ModerateAssessment(w.deps).execute(anActor(w.tenantId), ids[0]!, { decision: 'upheld', notes: 'fine' });
    expect(await sample.execute(w.actor, { programmeCode: 'P1' })).toMatchObject({
      population: 10,
      alreadyModerated: 1,
    });
  });

  it('refuses an unknown programme, a bad percent and an inverted period', async () => {
    const { w, sample } = await population(5);
    await expect(sample.execute(w.actor, { programmeCode: 'NOPE' })).rejects.toMatchObject({
      details: [{ field: 'programmeCode' }],
    });
    await expect(sample.execute(w.actor, { programmeCode: 'P1', percent: 0 })).rejects.toMatchObject({
      details: [{ field: 'percent' }],
    });
    await expect(
      sample.execute(w.actor, { programmeCode: 'P1', from: '2026-04-01', to: '2026-03-01' }),
    ).rejects.toMatchObject({ details: [{ field: 'to' }] });
  });
});
