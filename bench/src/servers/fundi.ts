import './as-started.js';
import { learners, tenants, migrateAll } from '@fundi/server';
import { join } from 'node:path';
import { T, resolve, type DatabaseTarget, useCasesOf } from '@fundi/adapters';
import { operator } from '@fundi/application';
import { containerFor, httpApp } from '@fundi/server';
import { learnerInput } from '../fixtures.js';
import { announce } from './ready.js';
import { scratchDir } from '../scratch.js';

// The real server (auth, rate limiting and request logging on; logs to stdout, which the harness discards),
// over a fresh database with a tenant whose per-key limits are raised so the load is counted but not refused.
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
  authCacheMs: Number(process.env.BENCH_AUTH_CACHE_MS ?? (database.kind === 'postgres' ? 1000 : 0)),
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
const register = useCasesOf(c, learners).registerLearner;
const actor = operator(created.tenant.id);
let learnerId = '';
for (let i = 0; i < Number(process.env.BENCH_SEED ?? 1000); i++) {
  const l = await register.execute(actor, learnerInput(3_000_000 + i));
  if (i === Math.floor(Number(process.env.BENCH_SEED ?? 1000) / 2)) learnerId = l.id;
}
const server = httpApp(c, config).listen(0, '127.0.0.1', () =>
  announce(server, { key: created.apiKey.key, learnerId, slug: created.tenant.slug }),
);
