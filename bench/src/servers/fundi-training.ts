import './as-started.js';
import { learners, tenants, training, migrateAll } from '@fundi/server';
import { join } from 'node:path';
import { T, resolve, type DatabaseTarget, useCasesOf } from '@fundi/adapters';
import { operator } from '@fundi/application';
import { containerFor, httpApp } from '@fundi/server';
import { learnerInput } from '../fixtures.js';
import { announce } from './ready.js';
import { scratchDir } from '../scratch.js';

// The real server over a fresh database: a programme of 30 modules, one enrolment with 20 summative assessments
// (the GET target), and enough enrolled learners for POST /assessments to record against.
const database: DatabaseTarget =
  process.env.BENCH_DB === 'postgres'
    ? {
        kind: 'postgres',
        url: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
        searchPath: process.env.BENCH_PG_SCHEMA,
        poolMax: 10,
      }
    : { kind: 'sqlite', filename: join(scratchDir('fundi-bench-'), 'fundi.sqlite') };

await migrateAll(database);
const config = {
  database,
  masterKey: Buffer.alloc(32, 1),
  logLevel: 'info',
  authCacheMs: database.kind === 'postgres' ? 1000 : 0,
  anonymousLimits: { perMinute: 100, perDay: null },
  trustProxy: false,
};
const c = containerFor(config);
const created = await useCasesOf(c, tenants).createTenant.execute({
  slug: `bench-${Date.now()}`,
  name: 'Bench',
  plan: 'enterprise',
});
await resolve(c, T.SqlDb).run('UPDATE tenants SET limit_overrides = ? WHERE id = ?', [
  JSON.stringify({ perMinute: 1_000_000_000, perDay: null }),
  created.tenant.id,
]);
const actor = operator(created.tenant.id);
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

const server = httpApp(c, config).listen(0, '127.0.0.1', () =>
  announce(server, { key: created.apiKey.key, enrolmentId: target.enrolmentId, learnerIds, modules: MODULES }),
);
