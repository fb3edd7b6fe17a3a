import type { DomainEvent, JobProgress } from '@fundi/domain';
import { describe, expect, it } from 'vitest';
import { ModerateAssessment } from '../assessments/moderate-assessment.js';
import { EraseLearner } from '../learners/erase-learner.js';
import { anActor } from '../testing/fakes.js';
import { aWorld, type World } from '../testing/training-world.js';
import { HR_OUTBOUND, hrOutboundReaction } from './hr-outbound-reaction.js';
import type { HrSource } from './send-hr-outbound.js';
import { SendHrOutbound } from './send-hr-outbound.js';

const HR_TYPES = ['learner.completed', 'learner.competency'];

/** What the dispatcher hands the reaction: the committed events of its types. */
async function dispatched(w: World): Promise<DomainEvent[]> {
  const all = await w.deps.repos.outbox.list(w.tenantId, { limit: 500 });
  return all.filter((e) => hrOutboundReaction.types.includes(e.type));
}

/** The reaction's job for `events`, run as the worker would (progress kept between runs). */
async function react(w: World, events: readonly DomainEvent[]) {
  const before = new Set(w.deps.store.tables.jobs.keys());
  await hrOutboundReaction.react({ jobs: w.deps.repos.jobs }, events, w.clock.now());
  const queued = [...w.deps.store.tables.jobs.values()].filter((j) => !before.has(j.id));
  let progress: JobProgress | null = null;
  const ctx = {
    get progress() {
      return progress;
    },
    reportIn: async (_: unknown, p: JobProgress) => void (progress = p),
  };
  const payload = queued[0]?.payload as { events: HrSource[] } | undefined;
  const run = () => new SendHrOutbound(w.deps).execute(payload?.events ?? [], ctx);
  return { queued, run };
}

async function employee(w: World, ref: string | null) {
  const id = await w.learner(ref ? 1 : 2);
  const l = (await w.deps.repos.learners.findById(w.tenantId, id))!;
  await w.deps.repos.learners.update({ ...l, employeeRef: ref });
  return id;
}

describe('HR outbound messages follow committed training events', () => {
  it('competency on each assessment and on an overturn, completion with its certificate; once each', async () => {
    const w = aWorld();
    await w.programme('P1', ['M1']);
    const staff = await employee(w, 'E-77');
    const other = await employee(w, null);
    const enrolmentId = await w.enrolment(staff, 'P1', '2026-02-01');
    await w.enrolment(other, 'P1', '2026-02-01');
    const nyc = await w.assess(staff, 'M1', { outcome: 'NYC' });
    await w.assess(other, 'M1');
    await new ModerateAssessment(w.deps).execute(anActor(w.tenantId), nyc, { decision: 'overturned', notes: 'C' });
    await w.move(enrolmentId, 'in_progress');
    await w.move(enrolmentId, 'completed', { certificateNumber: 'CERT-9' });
    const sources = await dispatched(w);

    const { queued, run } = await react(w, sources);
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ kind: HR_OUTBOUND.kind, idempotencyKey: `hr-outbound:${sources[0]!.id}` });
    await run();
    await run(); // a run again after a crash: the committed progress says it is done
    const hr = await w.deps.repos.outbox.list(w.tenantId, { types: HR_TYPES, limit: 10 });
    expect(hr.map((e) => [e.type, e.data.outcome ?? e.data.certificateNumber])).toEqual([
      ['learner.competency', 'NYC'],
      ['learner.competency', 'C'],
      ['learner.completed', 'CERT-9'],
    ]);
    expect(hr[1]!.data).toEqual({
      employeeRef: 'E-77',
      moduleCode: 'M1',
      outcome: 'C',
      assessmentType: 'summative',
      date: '2026-03-01',
    });
    expect(hr[2]!.data).toEqual({
      employeeRef: 'E-77',
      qualificationId: null,
      qualificationName: 'Programme P1',
      programmeCode: 'P1',
      achievementDate: expect.any(String),
      certificateNumber: 'CERT-9',
    });
    expect(hr.every((e) => e.subjectId === staff)).toBe(true);
    // Each message carries the time of the change it reports.
    const completion = sources.find((e) => e.type === 'enrolment.completed')!;
    expect(hr[2]!.occurredAt).toBe(completion.occurredAt);
  });

  it('an upheld moderation, a learner HR does not know and an erased learner send nothing', async () => {
    const w = aWorld();
    await w.programme('P1', ['M1']);
    const staff = await employee(w, 'E-1');
    await w.enrolment(staff, 'P1', '2026-02-01');
    const a = await w.assess(staff, 'M1');
    await new ModerateAssessment(w.deps).execute(anActor(w.tenantId), a, { decision: 'upheld', notes: 'ok' });
    const before = await dispatched(w);
    await new EraseLearner(w.deps).execute(w.actor, staff);
    const { queued } = await react(
      w,
      before.filter((e) => e.type === 'moderation.completed'),
    );
    expect(queued).toHaveLength(0);
    // The assessment's event was redacted by the erasure: the job finds no learner to tell HR about.
    const redacted = await w.deps.repos.outbox.list(w.tenantId, { types: ['assessment.recorded'], limit: 5 });
    const again = await react(w, redacted);
    await again.run();
    expect(await w.deps.repos.outbox.list(w.tenantId, { types: HR_TYPES, limit: 5 })).toEqual([]);
  });
});
