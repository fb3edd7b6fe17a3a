import './as-started.js';
import { learners, training } from '@fundi/server';
import { useCasesOf } from '@fundi/adapters';
import { learnerInput } from '../fixtures.js';
import { ON_POSTGRES, benchWorld, serve } from './bench-world.js';

// The real server over a fresh database: a programme of 30 modules, one enrolment with 20 summative assessments
// (the GET target), and enough enrolled learners for POST /assessments to record against.
const world = await benchWorld({ followBenchDb: true, authCacheMs: ON_POSTGRES ? 1000 : 0 });
const { c, tenant } = world;
const { actor } = tenant;
const MODULES = Array.from({ length: 30 }, (_, i) => `M${String(i + 1).padStart(2, '0')}`);
const kinds = ['knowledge', 'practical', 'workplace'];
await useCasesOf(c, training).createProgramme.execute(actor, {
  code: 'BENCH-30',
  name: 'Bench programme',
  type: 'occupational_qualification',
  nqfLevel: 5,
  modules: MODULES.map((code, i) => ({ code, name: `Module ${code}`, kind: kinds[i % 3], credits: 12 })),
});

async function enrol(n: number): Promise<{ learnerId: string; enrolmentId: string }> {
  const learner = await useCasesOf(c, learners).registerLearner.execute(actor, learnerInput(3_000_000 + n));
  const e = await useCasesOf(c, training).enrolLearner.execute(actor, {
    learnerId: learner.id,
    programmeCode: 'BENCH-30',
    startDate: '2025-01-06',
  });
  return { learnerId: learner.id, enrolmentId: e.id };
}

const target = await enrol(0);
const record = useCasesOf(c, training).recordAssessment;
for (let i = 0; i < 20; i++) {
  await record.execute(actor, {
    learnerId: target.learnerId,
    moduleCode: MODULES[i]!,
    assessmentType: 'summative',
    outcome: i % 4 ? 'C' : 'NYC',
    assessmentDate: '2025-06-02',
  });
}
const learnerIds: string[] = [];
for (let n = 1; n <= Number(process.env.BENCH_LEARNERS ?? 200); n++) learnerIds.push((await enrol(n)).learnerId);

serve(world, { key: tenant.apiKey.key, enrolmentId: target.enrolmentId, learnerIds, modules: MODULES });
