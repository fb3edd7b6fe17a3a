// Test fixture, not shipped: the built worker plus one long job that writes numbered steps, each step committed
// together with the progress that records it (apps/worker/src/long-job-crash.test.ts kills and restarts this).
import { SqlJobQueue, T, resolve } from '@fundi/adapters';
import { containerFor, loadConfigOrExit, migrateAll, workerFor } from '@fundi/server';

const config = loadConfigOrExit();
await migrateAll(config.database);
const c = containerFor(config);
const db = resolve(c, T.SqlDb);
const countedSteps = {
  kind: 'test.counted_steps',
  lane: 'long',
  parse: (p) => p,
  async run(p, ctx) {
    for (let i = ctx.progress?.processed ?? 0; i < p.steps; i++) {
      await new Promise((ok) => setTimeout(ok, p.delayMs));
      await db.transaction(async (tx) => {
        await tx.run('INSERT INTO kill_steps (run_key, step) VALUES (?, ?)', [p.runKey, i]);
        await ctx.reportIn(new SqlJobQueue(tx), { processed: i + 1, total: p.steps });
      });
    }
  },
};
const worker = workerFor(c, config.worker, undefined, [countedSteps]);
await worker.start();
process.on('SIGTERM', async () => {
  await worker.stop();
  process.exit(0);
});
