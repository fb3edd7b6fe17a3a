import './as-started.js';
import { join } from 'node:path';
import { T, resolve, useCasesOf, type DatabaseTarget } from '@fundi/adapters';
import { containerFor, httpApp, migrateAll, nudgeOnWrites, tenants, workerFor } from '@fundi/server';
import { announce } from './ready.js';
import { scratchDir } from '../scratch.js';

// The real server with its embedded worker (the default deployment): imports are validated and written by the
// worker in this process, so this process's peak memory is that of the whole import.
const dir = scratchDir('fundi-bench-imports-');
const database: DatabaseTarget =
  process.env.BENCH_DB === 'postgres'
    ? {
        kind: 'postgres',
        url: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
        searchPath: process.env.BENCH_PG_SCHEMA,
        poolMax: 10,
      }
    : { kind: 'sqlite', filename: join(dir, 'fundi.sqlite') };
await migrateAll(database);
const config = {
  database,
  masterKey: Buffer.alloc(32, 1),
  logLevel: 'info',
  authCacheMs: 0,
  anonymousLimits: { perMinute: 1_000_000, perDay: null },
  trustProxy: false,
  fileStore: { kind: 'local' as const, dir: join(dir, 'files') },
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
const worker = workerFor(c, { leaseMs: 30_000, pollMs: 200, concurrency: 64, graceMs: 1000 });
await worker.start();
const server = httpApp(c, config).listen(0, '127.0.0.1', () => announce(server, { key: created.apiKey.key }));
nudgeOnWrites(server, worker);
process.on('SIGTERM', async () => {
  await worker.stop();
  process.exit(0);
});
