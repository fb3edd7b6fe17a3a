import './as-started.js';
import { useCasesOf } from '@fundi/adapters';
import { learners, training } from '@fundi/server';
import { learnerInput } from '../fixtures.js';
import { scratchDir } from '../scratch.js';
import { benchWorld, serve } from './bench-world.js';

// The real server (embedded default: SQLite and encrypted files on local disk) with a learner enrolled in a
// programme, so evidence can be uploaded for module M01.
const world = await benchWorld({
  dir: scratchDir('fundi-bench-evidence-'),
  anonymousPerMinute: 1_000_000,
  files: true,
});
const { c, tenant } = world;
const { actor } = tenant;
await useCasesOf(c, training).createProgramme.execute(actor, {
  code: 'BENCH-EV',
  name: 'Bench programme',
  type: 'skills_programme',
  modules: [{ code: 'M01', name: 'Module', kind: 'practical' }],
});
const learner = await useCasesOf(c, learners).registerLearner.execute(actor, learnerInput(4_000_001));
await useCasesOf(c, training).enrolLearner.execute(actor, {
  learnerId: learner.id,
  programmeCode: 'BENCH-EV',
  startDate: '2025-01-06',
});

serve(world, { key: tenant.apiKey.key, learnerId: learner.id });
