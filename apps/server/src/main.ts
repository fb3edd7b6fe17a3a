import { hooksOf, migrateAll } from './capabilities/index.js';
import { T, closeContainer, resolve } from '@fundi/adapters';
import { loadConfigOrExit } from './config.js';
import { tuneHeap } from './heap.js';
import { capabilitiesOf, containerFor, httpApp } from './compose.js';
import { workerFor } from './compose-worker.js';
import { bootstrapDemoTenant, printDashboardLink } from './bootstrap.js';
import { nudgeOnWrites } from './nudge.js';
import { HttpDrain, httpServer } from '@fundi/http';
import { stopOnSignals } from './shutdown.js';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  tuneHeap(config.heapGrowingPercent);
  await migrateAll(config.database);
  const c = containerFor(config);
  const logger = resolve(c, T.Logger);
  const created = await bootstrapDemoTenant(c);
  // The embedded default: one process serves the API and runs the background worker (outbox, webhooks, jobs).
  const worker = config.embeddedWorker ? workerFor(c, config.worker) : null;
  await worker?.start();
  const drain = new HttpDrain();
  const server = httpServer(httpApp(c, { ...config, draining: drain.draining }));
  drain.track(server);
  if (worker) nudgeOnWrites(server, worker);
  server.listen(config.port, config.host);
  await new Promise<void>((ok, fail) => server.once('listening', ok).once('error', fail));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host}:${port}`;
  logger.info({ url, database: config.database.kind, dataDir: config.dataDir }, 'Fundi is listening');
  process.stdout.write(`\nFundi is serving at ${url}  (database: ${config.database.kind}, data: ${config.dataDir})\n`);
  process.stdout.write(`OpenAPI: ${url}/v1/openapi.json   Health: ${url}/health\n`);
  const hooks = hooksOf(c, capabilitiesOf(c));
  for (const note of hooks.startNotes()) process.stdout.write(`${note}\n`);
  if (created) {
    process.stdout.write(
      `\nCreated tenant "${created.tenant.slug}" (plan ${created.tenant.plan}). Its admin API key, shown only this once:\n\n` +
        `    ${created.apiKey.key}\n\nTry: curl -H "Authorization: Bearer ${created.apiKey.key}" ${url}/api/v1/learners\n\n`,
    );
  }

  await printDashboardLink(c, url);

  stopOnSignals({
    graceMs: config.shutdownGraceMs,
    logger,
    http: drain,
    worker,
    close: async () => {
      hooks.close();
      await closeContainer(c);
    },
    exit: (code) => process.exit(code),
  });
}

main().catch((e) => {
  process.stderr.write(`Fundi failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
