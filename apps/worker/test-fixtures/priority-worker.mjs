// Test fixture, not shipped: the built worker plus two test jobs, an interactive one that runs until the test opens
// its gate (a row in `priority_gate`) and a background one that returns at once. PRIORITY_KINDS names the kinds this
// process runs (apps/worker/src/job-priority.test.ts starts one process for each).
import { T, resolve } from '@fundi/adapters';
import { containerFor, loadConfigOrExit, migrateAll, workerFor } from '@fundi/server';

const config = loadConfigOrExit();
await migrateAll(config.database);
const c = containerFor(config);
const db = resolve(c, T.SqlDb);
const defs = {
  interactive: {
    kind: 'test.interactive',
    lane: 'long',
    priority: 'interactive',
    parse: (p) => p,
    async run(_p, ctx) {
      while (!ctx.signal.aborted && !(await db.first('SELECT 1 AS open FROM priority_gate')))
        await new Promise((ok) => setTimeout(ok, 25));
    },
  },
  background: { kind: 'test.background', lane: 'short', priority: 'background', parse: (p) => p, async run() {} },
};
const kinds = (process.env.PRIORITY_KINDS ?? '').split(',').filter(Boolean);
const worker = workerFor(
  c,
  config.worker,
  undefined,
  kinds.map((k) => defs[k]),
);
await worker.start();
process.on('SIGTERM', async () => {
  await worker.stop();
  process.exit(0);
});
