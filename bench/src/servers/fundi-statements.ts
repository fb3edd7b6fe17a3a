import './as-started.js';
import { learners, training } from '@fundi/server';
import { useCasesOf } from '@fundi/adapters';
import { learnerInput } from '../fixtures.js';
import { benchWorld, serve } from './bench-world.js';

// The real server over a fresh SQLite database with local encrypted files: a programme of 10 modules and
// BENCH_LEARNERS (100) learners enrolled in it, each with a summative result for every module.
const world = await benchWorld({ files: true });
const { c, tenant } = world;
const { actor } = tenant;
const MODULES = Array.from({ length: 10 }, (_, i) => `M${String(i + 1).padStart(2, '0')}`);
await useCasesOf(c, training).createProgramme.execute(actor, {
  code: 'SOR-10',
  name: 'Bench programme',
  type: 'occupational_qualification',
  qualificationId: '91761',
  nqfLevel: 4,
  modules: MODULES.map((code, i) => ({ code, name: `Module ${code}`, kind: 'knowledge', credits: 8 + (i % 3) })),
});
const enrolments: { learnerId: string; enrolmentId: string }[] = [];
for (let n = 1; n <= Number(process.env.BENCH_LEARNERS ?? 100); n++) {
  const learner = await useCasesOf(c, learners).registerLearner.execute(actor, learnerInput(5_000_000 + n));
  const e = await useCasesOf(c, training).enrolLearner.execute(actor, {
    learnerId: learner.id,
    programmeCode: 'SOR-10',
    startDate: '2025-01-06',
  });
  for (const [i, moduleCode] of MODULES.entries())
    await useCasesOf(c, training).recordAssessment.execute(actor, {
      learnerId: learner.id,
      enrolmentId: e.id,
      moduleCode,
      assessmentType: 'summative',
      outcome: i % 7 ? 'C' : 'NYC',
      assessmentDate: '2025-06-02',
    });
  enrolments.push({ learnerId: learner.id, enrolmentId: e.id });
}

serve(world, { key: tenant.apiKey.key, enrolments });
