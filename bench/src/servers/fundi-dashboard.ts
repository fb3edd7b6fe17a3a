import './as-started.js';
import { useCasesOf } from '@fundi/adapters';
import { learners, staff, training } from '@fundi/server';
import { learnerInput } from '../fixtures.js';
import { benchWorld, serve } from './bench-world.js';

// The real server over a tenant with BENCH_SEED (default 10,000) learners, each enrolled in two programmes (20,000
// enrolments) with five results recorded (50,000 assessments), and a signed-in admin session for the dashboard's pages.
const world = await benchWorld({ followBenchDb: true, authCacheMs: 1000 });
const { c, tenant } = world;
const { actor } = tenant;
const slug = tenant.tenant.slug;
const t = useCasesOf(c, training);
const PROGRAMMES = [
  ['P-BENCH', ['KM-01', 'PM-01', 'WM-01']],
  ['P-TWO', ['KM-11', 'PM-11']],
] as const;
let programmeId = '';
for (const [code, modules] of PROGRAMMES) {
  const p = await t.createProgramme.execute(actor, {
    code,
    name: `Bench programme ${code}`,
    type: 'skills_programme',
    modules: modules.map((m, i) => ({
      code: m,
      name: `Module ${m}`,
      kind: ['knowledge', 'practical', 'workplace'][i],
    })),
  });
  programmeId ||= p.id;
}
const register = useCasesOf(c, learners).registerLearner;
const seed = Number(process.env.BENCH_SEED ?? 10_000);
let learnerId = '';
for (let i = 0; i < seed; i += 50) {
  await Promise.all(
    Array.from({ length: Math.min(50, seed - i) }, async (_, j) => {
      const l = await register.execute(actor, learnerInput(4_000_000 + i + j));
      for (const [code, modules] of PROGRAMMES) {
        await t.enrolLearner.execute(actor, { learnerId: l.id, programmeCode: code, startDate: '2026-01-10' });
        for (const moduleCode of modules)
          await t.recordAssessment.execute(actor, {
            learnerId: l.id,
            moduleCode,
            outcome: (i + j) % 7 === 0 ? 'NYC' : 'C',
            assessmentType: 'summative',
            assessmentDate: '2026-03-01',
            assessorEmail: 'assessor@bench.example',
          });
      }
      if (i + j === Math.floor(seed / 2)) learnerId = l.id;
    }),
  );
}
const sample = await t.drawModerationSample.execute(actor, { programmeCode: 'P-BENCH', percent: 1 });
const people = useCasesOf(c, staff);
await people.createStaffUser.execute(slug, {
  email: 'admin@bench.example',
  name: 'Bench Admin',
  role: 'admin',
  password: 'bench password 123',
});
const session = await people.signIn.execute({
  tenant: slug,
  email: 'admin@bench.example',
  password: 'bench password 123',
});
serve(world, {
  key: tenant.apiKey.key,
  cookie: `fundi_session=${session.token}`,
  learnerId,
  programmeId,
  sampleId: sample.id,
});
