import { T, closeContainer, resolve } from '@fundi/adapters';
import { containerFor, loadConfigOrExit, migrateAll, stopOnSignals, tuneHeap, workerFor } from '@fundi/server';

/**
 * `npm run worker`: the background worker alone (outbox fan-out, webhook deliveries, jobs), for deployments that
 * run the API with FUNDI_EMBEDDED_WORKER=false or want more workers on one Postgres. SIGTERM/SIGINT stop it
 * gracefully: nothing new is claimed, in-flight work finishes within FUNDI_WORKER_GRACE_MS, leases are released,
 * and the process exits within FUNDI_SHUTDOWN_GRACE_MS; a second signal exits at once.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  tuneHeap(config.heapGrowingPercent);
  await migrateAll(config.database);
  const c = containerFor(config);
  const logger = resolve(c, T.Logger);
  const worker = workerFor(c, config.worker);
  await worker.start();
  process.stdout.write(`Fundi worker running (database: ${config.database.kind})\n`);

  stopOnSignals({
    graceMs: config.shutdownGraceMs,
    logger,
    worker,
    close: () => closeContainer(c),
    exit: (code) => process.exit(code),
  });
}

main().catch((e) => {
  process.stderr.write(`Fundi worker failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
