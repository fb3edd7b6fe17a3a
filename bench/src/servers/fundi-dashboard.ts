import './as-started.js';
import { Readable } from 'node:stream';
import { useCasesOf } from '@fundi/adapters';
import { importsCapability, reposOf, staff, training, workerFor } from '@fundi/server';
import { learnerInput } from '../fixtures.js';
import { benchWorld, serve } from './bench-world.js';

// The real server over a tenant with BENCH_SEED (default 10,000) learners, each enrolled in two programmes (20,000
// enrolments) with five results recorded (50,000 assessments), and a signed-in admin session for the dashboard's pages.
// The learners, enrolments and results are written by three imports (`notify: "none"`, confirmed without a dry run)
// that a worker in this process validates and writes, as the server's embedded worker would; the worker is stopped
// before the server listens, so the measured CPU is the pages' alone.
const world = await benchWorld({ followBenchDb: true, authCacheMs: 1000 });
const { c, tenant } = world;
const { actor } = tenant;
const slug = tenant.tenant.slug;
const t = useCasesOf(c, training);
const imports = useCasesOf(c, importsCapability);
const PROGRAMMES = [
  ['P-BENCH', ['KM-01', 'PM-01', 'WM-01']],
  ['P-TWO', ['KM-11', 'PM-11']],
] as const;
const seeding = performance.now();
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
const seed = Number(process.env.BENCH_SEED ?? 10_000);
const numbers = Array.from({ length: seed }, (_, i) => 4_000_000 + i);
const idNumber = (n: number) => String(learnerInput(n).idNumber);
const worker = workerFor(c, { leaseMs: 60_000, pollMs: 100, concurrency: 4, graceMs: 1000 });
await worker.start();

/** One import of `rows` (CSV lines after `header`), confirmed without a dry run; waits until every row is written. */
async function importRows(type: string, header: string, rows: string[]): Promise<void> {
  const began = performance.now();
  const csv = `${header}\n${rows.join('\n')}\n`;
  const started = await imports.startImport.execute(
    actor,
    { type, options: JSON.stringify({ dryRun: false, notify: 'none' }) },
    { stream: Readable.from([csv]), filename: `${type}.csv` },
  );
  worker.nudge();
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    const imp = await imports.getImport.execute(actor, started.id, { limit: 5 });
    if (imp.status === 'completed' && imp.errorCount === 0 && imp.importedRows === rows.length) break;
    if (imp.status === 'completed' || imp.status === 'failed' || (imp.status === 'validated' && imp.errorCount > 0))
      throw new Error(`the ${type} import ended ${imp.status}: ${JSON.stringify(imp)}`);
  }
  console.error(`seeded ${rows.length} ${type} in ${((performance.now() - began) / 1000).toFixed(1)} s`);
}

await importRows(
  'learners',
  'first_name,last_name,id_number,email,mobile,employee_ref',
  numbers.map((n) => {
    const l = learnerInput(n);
    // Each learner its own mobile (082 then n: 082 400 4567), so a search by number finds one learner, as in a tenant.
    const mobile = `082${String(n).padStart(7, '0')}`;
    return [l.firstName, l.lastName, l.idNumber, l.email, mobile, l.employeeRef].join(',');
  }),
);
await importRows(
  'enrolments',
  'id_number,programme_code,start_date',
  numbers.flatMap((n) => PROGRAMMES.map(([code]) => `${idNumber(n)},${code},2026-01-10`)),
);
await importRows(
  'assessments',
  'id_number,programme_code,module_code,assessment_type,outcome,assessment_date,assessor_email',
  numbers.flatMap((n, i) =>
    PROGRAMMES.flatMap(([code, modules]) =>
      modules.map(
        (m) => `${idNumber(n)},${code},${m},summative,${i % 7 === 0 ? 'NYC' : 'C'},2026-03-01,assessor@bench.example`,
      ),
    ),
  ),
);
await worker.stop();
const middle = await reposOf(c).learners.findByIdNumber(tenant.tenant.id, idNumber(numbers[Math.floor(seed / 2)]!));
if (!middle) throw new Error('the imported learners lack the middle one');
const learnerId = middle.id;
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
const seedSeconds = (performance.now() - seeding) / 1000;
console.error(`seeding took ${seedSeconds.toFixed(1)} s`);
serve(world, {
  key: tenant.apiKey.key,
  cookie: `fundi_session=${session.token}`,
  learnerId,
  programmeId,
  sampleId: sample.id,
  seedSeconds,
});
