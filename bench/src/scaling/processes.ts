import autocannon from 'autocannon';
import type pg from 'pg';
import { learnerInput } from '../fixtures.js';
import { scratchDir } from '../scratch.js';
import { startReceiverProcess, type Receiver } from '../webhook-parts.js';
import { databaseUrl, startApp, type App } from './apps.js';
import { cpuUs } from './measure.js';
import type { PrivatePostgres } from './private-postgres.js';
import { MASTER_KEY, call, count, probeClient, seedTenant, until, type Place } from './world.js';

const SECONDS = Number(process.env.BENCH_SCALING_LOAD_SECONDS ?? 8);
const CONNECTIONS = 32;

export interface LoadFigures {
  rps: number;
  p50: number;
  p99: number;
  failed: number;
  /** CPU ms per request: API processes, worker processes, the whole Postgres, the load generator (this process). */
  apiMs: number;
  workerMs: number;
  postgresMs: number;
  loadMs: number;
  /** CPU ms per request of a process in between (PgBouncer), when one was given. */
  proxyMs: number | null;
}

/** `CONNECTIONS` connections spread over the API processes, for SECONDS; CPU per request of everything involved. */
export async function spreadLoad(
  apis: readonly App[],
  workers: readonly App[],
  clusterCpu: () => number,
  key: string,
  path: string,
  body?: () => string,
  proxyPid?: number,
): Promise<LoadFigures> {
  const sum = (xs: readonly App[]) => xs.reduce((s, a) => s + (cpuUs(a.pid) ?? 0), 0);
  const proxy = () => (proxyPid ? (cpuUs(proxyPid) ?? 0) : 0);
  const before = { api: sum(apis), worker: sum(workers), pg: clusterCpu(), load: process.cpuUsage(), proxy: proxy() };
  const results = await Promise.all(
    apis.map((a) =>
      autocannon({
        url: a.url + path,
        method: body ? 'POST' : 'GET',
        connections: CONNECTIONS / apis.length,
        duration: SECONDS,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body ? { requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, body: body() }) }] } : {}),
      }),
    ),
  );
  const load = process.cpuUsage(before.load);
  const total = results.reduce((s, r) => s + r.requests.total, 0);
  const per = (us: number) => Number((us / total / 1000).toFixed(3));
  return {
    rps: Math.round(total / SECONDS),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    failed: results.reduce((s, r) => s + r.non2xx + r.errors, 0),
    apiMs: per(sum(apis) - before.api),
    workerMs: per(sum(workers) - before.worker),
    postgresMs: per(clusterCpu() - before.pg),
    loadMs: per(load.user + load.system),
    proxyMs: proxyPid ? per(proxy() - before.proxy) : null,
  };
}

interface Round {
  processes: number;
  creates: LoadFigures;
  /** Seconds from the end of the creates until every one was delivered to the receiver. */
  drainSeconds: number;
  deliveredDuringLoad: number;
  gets: LoadFigures;
}

let round = 0;

async function oneRound(cluster: PrivatePostgres, admin: pg.Client, rx: Receiver, n: number): Promise<Round> {
  const database = `fundi_p${++round}`;
  await admin.query(`CREATE DATABASE ${database}`);
  const place: Place = { host: '127.0.0.1', port: cluster.port, database };
  const apps: App[] = [];
  const probe = await probeClient(place);
  try {
    const { key } = await seedTenant(place);
    const env = {
      DATABASE_URL: databaseUrl(`postgres://postgres@127.0.0.1:${cluster.port}/${database}`),
      FUNDI_DATA_DIR: scratchDir('fundi-scaling-p-'),
      FUNDI_MASTER_KEY: MASTER_KEY.toString('base64'),
      FUNDI_WEBHOOK_ALLOW_HTTP: 'true',
      FUNDI_WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    };
    const apis: App[] = [];
    const workers: App[] = [];
    for (let i = 0; i < n; i++) apis.push(await startApp('api', env));
    for (let i = 0; i < n; i++) workers.push(await startApp('worker', env));
    apps.push(...apis, ...workers);
    const start0 = rx.total();
    await call(apis[0]!.url, key, 'PUT', '/api/v1/notification-settings', { triggers: { welcome: false } });
    await call(apis[0]!.url, key, 'POST', '/api/v1/webhook-subscriptions', {
      url: rx.url,
      events: ['learner.created'],
    });
    // A few hundred learners to read, and a warm-up of every process.
    let next = 5_000_000 + round * 100_000;
    const ids: string[] = [];
    for (let i = 0; i < 300; i++)
      ids.push(
        (await call<{ id: string }>(apis[i % n]!.url, key, 'POST', '/api/v1/learners', learnerInput(next++))).id,
      );
    const received0 = rx.total();
    const creates = await spreadLoad(apis, workers, cluster.clusterCpuUs, key, '/api/v1/learners', () =>
      JSON.stringify(learnerInput(next++)),
    );
    const ended = performance.now();
    const deliveredDuringLoad = rx.total() - received0;
    const made = await count(probe, 'SELECT count(*) AS n FROM learners');
    await until('every creation delivered', async () => rx.total() - start0 >= made, 300_000);
    const drainSeconds = (performance.now() - ended) / 1000;
    const gets = await spreadLoad(apis, workers, cluster.clusterCpuUs, key, `/api/v1/learners/${ids[150]}`);
    return { processes: n, creates, drainSeconds, deliveredDuringLoad, gets };
  } finally {
    for (const a of apps) await a.stop();
    await probe.end();
    await admin.query(`DROP DATABASE ${database}`);
  }
}

/** 1 API + 1 worker against 2 + 2 on one Postgres, the same load generator, alternating twice in one run. */
export async function compareProcesses(cluster: PrivatePostgres, admin: pg.Client): Promise<void> {
  const rx = await startReceiverProcess();
  const rounds: Round[] = [];
  try {
    for (const n of [1, 2, 1, 2]) {
      process.stderr.write(`scaling: ${n} API + ${n} worker processes\n`);
      rounds.push(await oneRound(cluster, admin, rx, n));
    }
  } finally {
    await rx.stop();
  }
  process.stdout.write(
    `\n## Scaling: 1 API + 1 worker against 2 + 2 on one Postgres (${CONNECTIONS} connections spread over the API processes, ${SECONDS} s each, webhook subscriber on learner.created)\n\n`,
  );
  process.stdout.write(
    '| processes | load | req/s | p50 ms | p99 ms | failed | API CPU ms/req | worker CPU ms/req | Postgres CPU ms/req | load generator CPU ms/req | delivered during load | drain after load s |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n',
  );
  for (const r of rounds)
    for (const [what, f] of [
      ['create learner', r.creates],
      ['GET learner by id', r.gets],
    ] as const)
      process.stdout.write(
        `| ${r.processes} + ${r.processes} | ${what} | ${f.rps} | ${f.p50} | ${f.p99} | ${f.failed} | ${f.apiMs} | ${f.workerMs} | ${f.postgresMs} | ${f.loadMs} | ${what === 'create learner' ? r.deliveredDuringLoad : ''} | ${what === 'create learner' ? r.drainSeconds.toFixed(1) : ''} |\n`,
      );
}
