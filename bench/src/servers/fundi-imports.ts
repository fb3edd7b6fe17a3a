import './as-started.js';
import { nudgeOnWrites, workerFor } from '@fundi/server';
import { scratchDir } from '../scratch.js';
import { benchWorld, serve } from './bench-world.js';

// The real server with its embedded worker (the default deployment): imports are validated and written by the
// worker in this process, so this process's peak memory is that of the whole import.
const world = await benchWorld({
  dir: scratchDir('fundi-bench-imports-'),
  followBenchDb: true,
  anonymousPerMinute: 1_000_000,
  files: true,
});
const worker = workerFor(world.c, { leaseMs: 30_000, pollMs: 200, concurrency: 64, graceMs: 1000 });
await worker.start();
// `database`: the bench counts the welcome messages the import led to in the SQLite file (read-only).
const server = serve(world, {
  key: world.tenant.apiKey.key,
  database: world.database.kind === 'sqlite' ? world.database.filename : null,
});
nudgeOnWrites(server, worker);
process.on('SIGTERM', async () => {
  await worker.stop();
  process.exit(0);
});
