import './as-started.js';
import { join } from 'node:path';
import { T, resolve, type DatabaseTarget, useCasesOf } from '@fundi/adapters';
import { operator } from '@fundi/application';
import { containerFor, httpApp, learners, migrateAll, staff, tenants, training } from '@fundi/server';
import { learnerInput } from '../fixtures.js';
import { announce } from './ready.js';
import { scratchDir } from '../scratch.js';

// The real server over a tenant with BENCH_SEED (default 10,000) learners, each enrolled in one programme, and a
// signed-in admin session for the dashboard's pages.
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
  logLevel: process.env.LOG_LEVEL_BENCH ?? 'info',
  authCacheMs: 1000,
  anonymousLimits: { perMinute: 100, perDay: null },
  trustProxy: false,
};
const c = containerFor(config);
const slug = `bench-${Date.now()}`;
const created = await useCasesOf(c, tenants).createTenant.execute({ slug, name: 'Bench', plan: 'enterprise' });
await resolve(c, T.SqlDb).run('UPDATE tenants SET limit_overrides = ? WHERE id = ?', [
  JSON.stringify({ perMinute: 1_000_000_000, perDay: null }),
  created.tenant.id,
]);
const actor = operator(created.tenant.id);
const t = useCasesOf(c, training);
await t.createProgramme.execute(actor, {
  code: 'P-BENCH',
  name: 'Bench programme',
  type: 'skills_programme',
  modules: ['KM-01', 'PM-01', 'WM-01'].map((code, i) => ({
    code,
    name: `Module ${code}`,
    kind: ['knowledge', 'practical', 'workplace'][i],
  })),
});
const register = useCasesOf(c, learners).registerLearner;
const seed = Number(process.env.BENCH_SEED ?? 10_000);
let learnerId = '';
for (let i = 0; i < seed; i += 50) {
  await Promise.all(
    Array.from({ length: Math.min(50, seed - i) }, async (_, j) => {
      const l = await register.execute(actor, learnerInput(4_000_000 + i + j));
      await t.enrolLearner.execute(actor, { learnerId: l.id, programmeCode: 'P-BENCH', startDate: '2026-01-10' });
      if (i + j === Math.floor(seed / 2)) learnerId = l.id;
    }),
  );
}
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
const server = httpApp(c, config).listen(0, '127.0.0.1', () =>
  announce(server, { key: created.apiKey.key, cookie: `fundi_session=${session.token}`, learnerId }),
);
