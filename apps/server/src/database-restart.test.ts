import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContainer, useCasesOf, type DatabaseTarget } from '@fundi/adapters';
import {
  buildBeforeAll,
  exited,
  LOOPBACK_RECEIVER_ENV,
  scratchDir,
  startReceiver,
  until,
  WORKER_MAIN,
  type TestReceiver,
} from '@fundi/adapters/testing';
import { aLearnerInput } from '@fundi/domain/testing';
import { migrateAll, tenants, webhookCapability } from './capabilities/index.js';
import { containerFor } from './compose.js';
import { appProcesses, SERVER_MAIN, servingAt, type AppProcess } from './testing/app-processes.js';
import { LEARNER_HEADER, learnerLine, multipart } from './testing/import-fixtures.js';
import {
  startThrowawayPostgres,
  throwawayPostgresAvailable,
  type ThrowawayPostgres,
} from './testing/throwaway-postgres.js';

/** The fields of the answers these tests read. */
interface Answer {
  id: string;
  status: string;
  importedRows: number;
  data: { id: string }[];
  error: { code: string; message: string };
}

const MASTER_KEY = Buffer.alloc(32, 11);
const IMPORT_ROWS = 3000;
const RESTARTS = 2;
const canRun = throwawayPostgresAvailable();
const pause = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

buildBeforeAll();

/** A tenant on the enterprise plan (the test's stream stays far below its limits), subscribed to learner.created. */
async function seed(target: DatabaseTarget, receiverUrl: string): Promise<{ tenantId: string; key: string }> {
  const c = containerFor({
    database: target,
    masterKey: MASTER_KEY,
    logLevel: 'silent',
    webhooks: { allowHttp: true, allowHosts: ['127.0.0.1'], timeoutMs: 1000 },
  });
  try {
    const made = await useCasesOf(c, tenants).createTenant.execute({
      slug: 'restarts',
      name: 'Restarts',
      plan: 'enterprise',
    });
    const actor = { tenantId: made.tenant.id, id: 'test', role: 'admin' as const, scopes: [] };
    await useCasesOf(c, webhookCapability).create.execute(actor, { url: receiverUrl, events: ['learner.created'] });
    return { tenantId: made.tenant.id, key: made.apiKey.key };
  } finally {
    await closeContainer(c);
  }
}

/**
 * The hosted set-up (an API process and a worker process on Postgres) while its database restarts twice
 * (`pg_ctl restart -m fast`) under load: an import of 3,000 learners, their webhook deliveries and welcome messages,
 * and a stream of learner creations from the test. Both processes live through it, the queued work completes, and
 * no write the API acknowledged (201) is lost. The cluster is the test's own, never the shared server.
 */
describe.runIf(canRun)('the service while its Postgres restarts [throw-away cluster]', () => {
  const start = appProcesses();
  let cluster: ThrowawayPostgres;
  let receiver: TestReceiver;
  let api: AppProcess;
  let worker: AppProcess;
  let url: string;
  let key: string;
  let tenantId: string;
  beforeAll(async () => {
    cluster = await startThrowawayPostgres();
    receiver = await startReceiver({ status: 200 });
    const target: DatabaseTarget = { kind: 'postgres', url: cluster.url };
    await migrateAll(target);
    ({ tenantId, key } = await seed(target, receiver.url));
    const env = {
      DATABASE_URL: cluster.url,
      FUNDI_DATA_DIR: scratchDir('fundi-restart-'),
      FUNDI_MASTER_KEY: MASTER_KEY.toString('base64'),
      LOG_LEVEL: 'info',
      FUNDI_WORKER_LEASE_MS: '5000',
      ...LOOPBACK_RECEIVER_ENV,
    };
    api = start(SERVER_MAIN, { ...env, FUNDI_EMBEDDED_WORKER: 'false', PORT: '0', HOST: '127.0.0.1' });
    worker = start(WORKER_MAIN, env);
    url = await servingAt(api);
    await until(() => worker.lines.some((l) => l.includes('Fundi worker running')), 30_000, 'the worker to start');
  }, 90_000);
  afterAll(async () => {
    await receiver?.close().catch(() => {});
    cluster?.destroy();
  });

  const call = async (method: string, path: string, body?: unknown, type = 'application/json') => {
    const res = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': type } : {}) },
      body: body === undefined ? undefined : Buffer.isBuffer(body) ? body : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as Answer };
  };

  it('keeps both processes alive, completes the queued work and loses no acknowledged write', async () => {
    const csv = [LEARNER_HEADER, ...Array.from({ length: IMPORT_ROWS }, (_, i) => learnerLine(i + 1))].join('\n');
    const file = multipart(
      { type: 'learners', options: '{"dryRun":false}' },
      { name: 'restart.csv', data: Buffer.from(csv) },
    );
    const imp = await call('POST', '/api/v1/imports', file.body, file.type);
    expect(imp.status).toBe(202);

    // A client creating learners one after another, and a probe asking /ready, for the whole test.
    const acknowledged: string[] = [];
    const statuses: number[] = [];
    const ready: number[] = [];
    let running = true;
    const stream = (async () => {
      while (running) {
        const r = await call('POST', '/api/v1/learners', aLearnerInput()).catch(() => ({ status: 0, body: null }));
        statuses.push(r.status);
        if (r.status === 201 && r.body) acknowledged.push(r.body.id);
        await pause(80);
      }
    })();
    const probe = (async () => {
      while (running) {
        ready.push(
          await fetch(`${url}/ready`).then(
            (r) => r.status,
            () => 0,
          ),
        );
        await pause(50);
      }
    })();

    const importStatus = async () => (await call('GET', `/api/v1/imports/${imp.body.id}`)).body;
    const restarts: number[] = [];
    let importRuns = 0;
    try {
      await until(async () => (await importStatus()).status === 'importing', 30_000, 'the import to start writing');
      for (let i = 0; i < RESTARTS; i++) {
        const before = acknowledged.length;
        restarts.push(await cluster.restart());
        expect(api.alive(), `the API process after a restart:\n${api.lines.slice(-30).join('\n')}`).toBe(true);
        expect(worker.alive(), `the worker process after a restart:\n${worker.lines.slice(-30).join('\n')}`).toBe(true);
        // The API recovers by itself: a write is acknowledged again.
        await until(() => acknowledged.length > before + 2, 20_000, 'writes acknowledged after the restart');
      }
      await until(async () => (await importStatus()).status === 'completed', 60_000, 'the import to complete');
    } finally {
      running = false;
      await Promise.all([stream, probe]);
    }
    const done = await importStatus();
    expect(done).toMatchObject({ status: 'completed', importedRows: IMPORT_ROWS });

    const db = new pg.Client({ connectionString: cluster.url, user: 'postgres' });
    await db.connect();
    try {
      const count = async (sql: string, values: unknown[] = []) =>
        Number((await db.query<{ n: string }>(sql, values)).rows[0]!.n);
      // Every write the API acknowledged is there.
      expect(await count('SELECT count(*) AS n FROM learners WHERE id = ANY($1)', [acknowledged])).toBe(
        acknowledged.length,
      );
      const learners = await count('SELECT count(*) AS n FROM learners WHERE tenant_id = $1', [tenantId]);
      expect(learners).toBeGreaterThanOrEqual(IMPORT_ROWS + acknowledged.length);
      // Every learner's learner.created reaches the receiver (at least once), and every job due has run.
      const delivered = () =>
        new Set(
          receiver.received
            .map((r) => JSON.parse(r.body) as { type: string; data: { id: string } })
            .filter((p) => p.type === 'learner.created')
            .map((p) => p.data.id),
        );
      await until(() => delivered().size >= learners, 60_000, `learner.created for all ${learners} learners`);
      const now = new Date().toISOString();
      await until(
        async () => (await count('SELECT count(*) AS n FROM jobs WHERE done_at IS NULL AND due_at <= $1', [now])) === 0,
        60_000,
        'every job due to have run',
      );
      expect(await count('SELECT count(*) AS n FROM jobs WHERE done_at IS NOT NULL AND last_error IS NOT NULL')).toBe(
        0,
      );
      importRuns = await count(`SELECT max(attempts) AS n FROM jobs WHERE kind LIKE 'imports.%'`);
    } finally {
      await db.end();
    }

    // Answers while the database was away were 503s, never 500s, and /ready said so; both processes live on.
    expect(statuses.filter((s) => s !== 201 && s !== 503)).toEqual([]);
    expect(ready).toContain(503);
    expect(ready.at(-1)).toBe(200);
    expect(api.alive() && worker.alive()).toBe(true);
    expect(api.logs('unhandled error')).toEqual([]);
    const outages = worker.logs('database unreachable: the worker waits and tries again').length;
    expect(outages).toBeGreaterThanOrEqual(1);
    expect(outages).toBeLessThanOrEqual(2 * RESTARTS);
    expect(worker.logs('worker loop failed')).toEqual([]);
    process.stdout.write(
      `[database restarts] restarts took ${restarts.join(', ')} ms; ${acknowledged.length} writes acknowledged, ` +
        `${statuses.filter((s) => s === 503).length} answered 503; /ready 503 ${ready.filter((s) => s === 503).length} ` +
        `times; worker outages logged ${outages}; an import job ran ${importRuns} times at most\n`,
    );

    api.child.kill('SIGTERM');
    worker.child.kill('SIGTERM');
    expect(await Promise.all([exited(api.child), exited(worker.child)])).toEqual([0, 0]);
  }, 180_000);
});
