import type { Server } from 'node:http';
import { migrateAll, notificationsCapability } from './capabilities/index.js';
import { T, closeContainer, resolve, useCasesOf } from '@fundi/adapters';
import { loadConfigOrExit } from './config.js';
import { tuneHeap } from './heap.js';
import { containerFor, httpApp } from './compose.js';
import { workerFor } from './compose-worker.js';
import { bootstrapDemoTenant, printDashboardLink } from './bootstrap.js';
import { nudgeOnWrites } from './nudge.js';
import { answerClientErrors } from '@fundi/http';

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
  const server: Server = httpApp(c, config).listen(config.port, config.host);
  answerClientErrors(server);
  if (worker) nudgeOnWrites(server, worker);
  await new Promise<void>((ok, fail) => server.once('listening', ok).once('error', fail));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host}:${port}`;
  logger.info({ url, database: config.database.kind, dataDir: config.dataDir }, 'Fundi is listening');
  process.stdout.write(`\nFundi is serving at ${url}  (database: ${config.database.kind}, data: ${config.dataDir})\n`);
  process.stdout.write(`OpenAPI: ${url}/v1/openapi.json   Health: ${url}/health\n`);
  const mail = useCasesOf(c, notificationsCapability);
  process.stdout.write(`Mail goes to ${mail.describeDefaultMail()}\n`);
  if (created) {
    process.stdout.write(
      `\nCreated tenant "${created.tenant.slug}" (plan ${created.tenant.plan}). Its admin API key, shown only this once:\n\n` +
        `    ${created.apiKey.key}\n\nTry: curl -H "Authorization: Bearer ${created.apiKey.key}" ${url}/api/v1/learners\n\n`,
    );
  }

  await printDashboardLink(c, url);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    server.close();
    server.closeIdleConnections();
    await worker?.stop();
    mail.closeChannels();
    await closeContainer(c);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((e) => {
  process.stderr.write(`Fundi failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
