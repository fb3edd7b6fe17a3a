import { spawn, type ChildProcess } from 'node:child_process';
import { webhookCapability, tenants, migrateAll } from '@fundi/server';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { T, closeContainer, resolve, type DatabaseTarget, type SqlDb, useCasesOf } from '@fundi/adapters';
import { generateWebhookSecret } from '@fundi/domain/webhooks';
import { containerFor } from '@fundi/server';
import { BENCH_DIR, withPgSchemas } from './harness.js';
import { cpuSeconds, plainFetchLoop, plainSignedLoop, startReceiverProcess, type Receiver } from './webhook-parts.js';
import { PG_URL } from './pg-url.js';
import { scratchDir } from './scratch.js';

const FAN_OUT = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
const IDLE = 200;
const WARM_UP = Number(process.env.BENCH_WEBHOOK_WARM_UP ?? 2_000);
const MASTER_KEY = Buffer.alloc(32, 11);

interface Result {
  db: string;
  /** The undici loop's rate, measured right before this run's burst (the worker idle and warm). */
  undici: number;
  rate: number;
  seconds: number;
  attempts: number;
  cpuUs: number | null;
  p50: number;
  p95: number;
  max: number;
}

/**
 * `npm run worker` as shipped, on the bench database; resolves once it runs. BENCH_WORKER_PROF=1 profiles it to
 * /tmp/wprof; BENCH_WORKER_PG_OPTIONS adds settings to the worker's Postgres sessions (e.g. `-c
 * log_min_duration_statement=0` to have the server log every statement the worker runs with its duration).
 */
async function startWorker(target: DatabaseTarget): Promise<ChildProcess> {
  const url =
    target.kind === 'sqlite'
      ? `sqlite:${target.filename}`
      : `${PG_URL}?options=${encodeURIComponent(`-c search_path=${target.searchPath} ${process.env.BENCH_WORKER_PG_OPTIONS ?? ''}`.trim())}`;
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_WORKER_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/wprof'] : []),
      join(BENCH_DIR, '../../apps/worker/dist/main.js'),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        DATABASE_URL: url,
        FUNDI_DATA_DIR: scratchDir('fundi-bench-worker-'),
        FUNDI_MASTER_KEY: MASTER_KEY.toString('base64'),
        FUNDI_WEBHOOK_ALLOW_HTTP: 'true',
        FUNDI_WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
        LOG_LEVEL: 'warn',
      },
    },
  );
  await new Promise<void>((ok, fail) => {
    createInterface({ input: child.stdout! }).on('line', (l) => l.includes('worker running') && ok());
    child.once('exit', (code) => fail(new Error(`worker exited with ${code}`)));
  });
  return child;
}

async function insertEvents(db: SqlDb, tenantId: string, ids: readonly string[]): Promise<void> {
  const at = new Date().toISOString();
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    await db.run(
      `INSERT INTO outbox_events (id, tenant_id, type, occurred_at, data) VALUES ${part.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
      part.flatMap((id) => [
        id,
        tenantId,
        'learner.created',
        at,
        JSON.stringify({ id, firstName: 'Bench', lastName: 'Learner' }),
      ]),
    );
    await db.run(`INSERT INTO outbox_pending (id) VALUES ${part.map(() => '(?)').join(', ')}`, part);
  }
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

async function fundiRun(target: DatabaseTarget, rx: Receiver, baseline: () => Promise<number>): Promise<Result> {
  await migrateAll(target);
  const c = containerFor({
    database: target,
    masterKey: MASTER_KEY,
    logLevel: 'silent',
    webhooks: { allowHttp: true, allowHosts: ['127.0.0.1'], timeoutMs: 10_000 },
  });
  const db = resolve(c, T.SqlDb);
  const tenant = await useCasesOf(c, tenants).createTenant.execute({
    slug: `bench-${Date.now()}`,
    name: 'Bench',
    plan: 'enterprise',
  });
  const tenantId = tenant.tenant.id;
  await useCasesOf(c, webhookCapability).create.execute(
    { tenantId, id: 'bench', role: 'admin', scopes: [] },
    { url: rx.url, events: ['learner.created'] },
  );
  const worker = await startWorker(target);
  try {
    const tag = randomBytes(3).toString('hex');
    // The worker's warm-up, as the undici loop has its own: a fresh process runs its first thousands of events
    // before V8 has optimised the code, which would measure the compiler rather than the fan-out.
    const warm = Array.from({ length: WARM_UP }, (_, i) => `evt_warm_${tag}_${i}`);
    await insertEvents(db, tenantId, warm);
    await rx.waitFor(warm, 300_000);
    // The baseline beside each run rather than once for all: the machine's speed drifts between runs.
    const undici = await baseline();
    const ids = Array.from({ length: FAN_OUT }, (_, i) => `evt_bench_${tag}_${i}`);
    const started = Date.now();
    const cpuBefore = cpuSeconds(worker.pid);
    await insertEvents(db, tenantId, ids);
    await rx.waitFor(ids, 300_000);
    const cpuAfter = cpuSeconds(worker.pid);
    const cpuUs = cpuBefore === null || cpuAfter === null ? null : Math.round(((cpuAfter - cpuBefore) * 1e6) / FAN_OUT);
    const seconds = (Math.max(...ids.map((id) => rx.seen.get(id)!)) - started) / 1000;
    await new Promise((ok) => setTimeout(ok, 500));
    const attempts = Number(
      (
        await db.first<{ n: number }>(
          'SELECT count(*) AS n FROM webhook_attempts WHERE tenant_id = ? AND event_id LIKE ?',
          [tenantId, `evt_bench_${tag}_%`],
        )
      )?.n ?? 0,
    );
    const latencies: number[] = [];
    for (let i = 0; i < IDLE; i++) {
      const id = `evt_idle_${tag}_${i}`;
      await insertEvents(db, tenantId, [id]);
      const committed = Date.now();
      await rx.waitFor([id], 10_000);
      latencies.push(rx.seen.get(id)! - committed);
    }
    return {
      db: target.kind,
      undici,
      rate: Math.round(FAN_OUT / seconds),
      seconds,
      attempts,
      cpuUs,
      p50: pct(latencies, 0.5),
      p95: pct(latencies, 0.95),
      max: Math.max(...latencies),
    };
  } finally {
    worker.kill('SIGTERM');
    await new Promise((ok) => worker.once('exit', ok));
    await closeContainer(c);
  }
}

export async function webhooksBench(opts: { postgres: boolean }): Promise<void> {
  const rx = await startReceiverProcess();
  const secret = generateWebhookSecret();
  try {
    await plainSignedLoop(rx.url, 2_000, 20, secret);
    const loop = () => plainSignedLoop(rx.url, FAN_OUT, 20, secret);
    const undici = await loop();
    const fetched = await plainFetchLoop(rx.url, Math.min(FAN_OUT, 5_000), 20, secret);
    const results = [
      await fundiRun({ kind: 'sqlite', filename: join(scratchDir('fundi-bench-'), 'fundi.sqlite') }, rx, loop),
    ];
    if (opts.postgres)
      results.push(
        await withPgSchemas(1, (url, [schema]) =>
          fundiRun({ kind: 'postgres', url, searchPath: schema!, poolMax: 10 }, rx, loop),
        ),
      );
    process.stdout.write(`\n## Webhooks: ${FAN_OUT} events fanned out by one worker process to a receiver process\n`);
    process.stdout.write(
      'Each run is compared with the undici loop measured just before its burst (the worker warm and idle).\n\n',
    );
    process.stdout.write(
      '| scenario | events/s | undici loop just before | vs that loop | worker CPU µs/event | attempts logged | idle p50 ms | idle p95 ms | idle max ms | target |\n|---|---|---|---|---|---|---|---|---|---|\n',
    );
    process.stdout.write(
      `| baseline: plain signed POST loop, undici, 20 in flight | ${undici} | | 100% | | | | | | |\n`,
    );
    process.stdout.write(
      `| reference: same loop, global fetch | ${fetched} | | ${((fetched / undici) * 100).toFixed(1)}% | | | | | | |\n`,
    );
    for (const r of results) {
      const met = r.rate >= 0.5 * r.undici && r.attempts >= FAN_OUT && r.p95 < 1000;
      process.stdout.write(
        `| ${r.db}: outbox -> worker -> receiver (${r.seconds.toFixed(2)} s) | ${r.rate} | ${r.undici} | ${((r.rate / r.undici) * 100).toFixed(1)}% | ${r.cpuUs ?? 'n/a'} | ${r.attempts} | ${r.p50} | ${r.p95} | ${r.max} | ${met ? 'MET' : 'MISSED'}: >= 50% of the undici loop, every attempt logged, p95 < 1 s |\n`,
      );
    }
  } finally {
    await rx.stop();
  }
}
