import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import type pg from 'pg';
import { BENCH_DIR } from '../harness.js';
import { learnerInput } from '../fixtures.js';
import { scratchDir } from '../scratch.js';
import { startReceiverProcess, type Receiver } from '../webhook-parts.js';
import { databaseUrl, startApp, type App } from './apps.js';
import { asPostgres, freePort, postgresOwnedDir, type PrivatePostgres } from './private-postgres.js';
import { spreadLoad, type LoadFigures } from './processes.js';
import { MASTER_KEY, call, probeClient, seedTenant, until, type Place } from './world.js';

const PGBOUNCER = '/usr/sbin/pgbouncer';
/** Server connections PgBouncer keeps per database: fewer than the API processes' pools hold together. */
const SERVER_POOL = 8;
const UNNAMED = ['--import', pathToFileURL(join(BENCH_DIR, 'scaling', 'unnamed-statements.js')).href];

interface Bouncer {
  port: number;
  pid: number;
  stop(): void;
}

/**
 * PgBouncer (Debian's package) with a configuration of the bench's own in a scratch folder, in front of the private
 * cluster: transaction pooling, trust authentication, loopback only, run as the `postgres` OS user (it refuses root).
 */
async function startPgBouncer(pgPort: number): Promise<Bouncer> {
  const dir = postgresOwnedDir('fundi-scaling-pgb-');
  const port = await freePort();
  writeFileSync(join(dir, 'users.txt'), '"postgres" ""\n');
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=127.0.0.1 port=${pgPort}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${SERVER_POOL}`,
      'max_client_conn = 1000',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  asPostgres(PGBOUNCER, ['-d', join(dir, 'pgbouncer.ini')], dir);
  await until('PgBouncer to start', async () => existsSync(join(dir, 'pgbouncer.pid')), 10_000);
  const pid = Number(readFileSync(join(dir, 'pgbouncer.pid'), 'utf8').trim());
  return {
    port,
    pid,
    stop: () => {
      try {
        process.kill(pid, 'SIGINT');
      } catch {
        // Gone already.
      }
    },
  };
}

interface Setup {
  name: string;
  viaBouncer: boolean;
  unnamed: boolean;
}

interface SetupFigures {
  setup: Setup;
  gets: LoadFigures;
  creates: LoadFigures;
  /** The most server connections (backends) the database had during the load. */
  backends: number;
  /** Idle delivery latency: a learner created through the API to its webhook at the receiver, median and max ms. */
  deliveryP50: number;
  deliveryMax: number;
}

/** Backends of `database` every 200 ms while `work` runs: the most seen. */
async function peakBackends<T>(admin: pg.Client, database: string, work: () => Promise<T>): Promise<[T, number]> {
  let peak = 0;
  let on = true;
  const watch = (async () => {
    while (on) {
      const r = await admin.query<{ n: string }>(
        `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'`,
        [database],
      );
      peak = Math.max(peak, Number(r.rows[0]!.n));
      await new Promise((ok) => setTimeout(ok, 200));
    }
  })();
  try {
    return [await work(), peak];
  } finally {
    on = false;
    await watch;
  }
}

let made = 0;

async function runSetup(
  cluster: PrivatePostgres,
  admin: pg.Client,
  bouncer: Bouncer,
  rx: Receiver,
  setup: Setup,
): Promise<SetupFigures> {
  const database = `fundi_b${++made}`;
  await admin.query(`CREATE DATABASE ${database}`);
  const place: Place = { host: '127.0.0.1', port: cluster.port, database };
  const apps: App[] = [];
  const probe = await probeClient(place);
  try {
    // Migrations and the seed go straight to Postgres (knex sets the search path per session); the apps do not migrate
    // anything more when they start.
    const { key } = await seedTenant(place);
    const port = setup.viaBouncer ? bouncer.port : cluster.port;
    const env = {
      DATABASE_URL: databaseUrl(`postgres://postgres@127.0.0.1:${port}/${database}`),
      FUNDI_DATA_DIR: scratchDir('fundi-scaling-b-'),
      FUNDI_MASTER_KEY: MASTER_KEY.toString('base64'),
      FUNDI_WEBHOOK_ALLOW_HTTP: 'true',
      FUNDI_WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    };
    const args = setup.unnamed ? UNNAMED : [];
    const proxyPid = setup.viaBouncer ? bouncer.pid : undefined;
    const apis: App[] = [];
    for (let i = 0; i < 2; i++) apis.push(await startApp('api', env, args));
    const worker = await startApp('worker', env, args);
    apps.push(...apis, worker);
    await call(apis[0]!.url, key, 'PUT', '/api/v1/notification-settings', { triggers: { welcome: false } });
    await call(apis[0]!.url, key, 'POST', '/api/v1/webhook-subscriptions', {
      url: rx.url,
      events: ['learner.created'],
    });
    let next = 7_000_000 + made * 100_000;
    const first = await call<{ id: string }>(apis[0]!.url, key, 'POST', '/api/v1/learners', learnerInput(next++));
    // Delivery latency while idle: the work signal (LISTEN) wakes the worker at once; without it, its next poll does.
    const latencies: number[] = [];
    await new Promise((ok) => setTimeout(ok, 1000));
    for (let i = 0; i < 20; i++) {
      const before = rx.total();
      await call(apis[i % 2]!.url, key, 'POST', '/api/v1/learners', learnerInput(next++));
      const at = performance.now();
      await until('the delivery', async () => rx.total() > before, 10_000);
      latencies.push(Math.round(performance.now() - at));
      await new Promise((ok) => setTimeout(ok, 150 + ((i * 37) % 100)));
    }
    latencies.sort((a, b) => a - b);
    const [gets, peakGets] = await peakBackends(admin, database, () =>
      spreadLoad(apis, [worker], cluster.clusterCpuUs, key, `/api/v1/learners/${first.id}`, undefined, proxyPid),
    );
    const [creates, peakCreates] = await peakBackends(admin, database, () =>
      spreadLoad(
        apis,
        [worker],
        cluster.clusterCpuUs,
        key,
        '/api/v1/learners',
        () => JSON.stringify(learnerInput(next++)),
        proxyPid,
      ),
    );
    return {
      setup,
      gets,
      creates,
      backends: Math.max(peakGets, peakCreates),
      deliveryP50: latencies[10]!,
      deliveryMax: latencies[19]!,
    };
  } finally {
    for (const a of apps) await a.stop();
    await probe.end();
    await admin.query(`DROP DATABASE ${database} WITH (FORCE)`);
  }
}

/** The shipped apps through PgBouncer as they are: named statements meet another session's connection. */
async function namedThroughBouncer(cluster: PrivatePostgres, admin: pg.Client, bouncer: Bouncer): Promise<string> {
  const database = `fundi_b${++made}`;
  await admin.query(`CREATE DATABASE ${database}`);
  const place: Place = { host: '127.0.0.1', port: cluster.port, database };
  let api: App | null = null;
  try {
    const { key } = await seedTenant(place);
    api = await startApp('api', {
      DATABASE_URL: databaseUrl(`postgres://postgres@127.0.0.1:${bouncer.port}/${database}`),
      FUNDI_DATA_DIR: scratchDir('fundi-scaling-b-'),
      FUNDI_MASTER_KEY: MASTER_KEY.toString('base64'),
    });
    const learner = await call<{ id: string }>(
      api.url,
      key,
      'POST',
      '/api/v1/learners',
      learnerInput(6_900_000),
      [201, 500, 503],
    );
    const r = await autocannon({
      url: `${api.url}/api/v1/learners/${learner.id ?? 'lrn_x'}`,
      connections: 20,
      amount: 2000,
      headers: { authorization: `Bearer ${key}` },
    });
    return `${r.non2xx + r.errors} of ${r.requests.total} GETs failed (first create: ${learner.id ? 'answered' : 'failed'})`;
  } finally {
    await api?.stop();
    await admin.query(`DROP DATABASE ${database} WITH (FORCE)`);
  }
}

export async function throughPgBouncer(cluster: PrivatePostgres, admin: pg.Client): Promise<void> {
  if (!existsSync(PGBOUNCER)) {
    process.stdout.write(
      '\n## Scaling: PgBouncer\n\nSkipped: /usr/sbin/pgbouncer is missing (`apt-get install pgbouncer`).\n',
    );
    return;
  }
  const bouncer = await startPgBouncer(cluster.port);
  const rx = await startReceiverProcess();
  const rows: SetupFigures[] = [];
  let named = '';
  try {
    process.stderr.write('scaling: PgBouncer, named statements\n');
    named = await namedThroughBouncer(cluster, admin, bouncer);
    for (const setup of [
      { name: 'direct, named statements (as shipped)', viaBouncer: false, unnamed: false },
      { name: 'direct, unnamed statements', viaBouncer: false, unnamed: true },
      {
        name: `PgBouncer (transaction mode, ${SERVER_POOL} server connections), unnamed statements`,
        viaBouncer: true,
        unnamed: true,
      },
    ]) {
      process.stderr.write(`scaling: ${setup.name}\n`);
      rows.push(await runSetup(cluster, admin, bouncer, rx, setup));
    }
  } finally {
    await rx.stop();
    bouncer.stop();
  }
  process.stdout.write(
    `\n## Scaling: PgBouncer 1.18 in transaction mode (2 API processes with pools of 10 + 1 worker; 32 connections of load)\n\nThe apps as shipped through PgBouncer: ${named}.\n\n`,
  );
  process.stdout.write(
    '| setup | load | req/s | p99 ms | failed | API CPU ms/req | Postgres CPU ms/req | PgBouncer CPU ms/req | peak backends | idle delivery p50 ms | idle delivery max ms |\n|---|---|---|---|---|---|---|---|---|---|---|\n',
  );
  for (const r of rows)
    for (const [what, f] of [
      ['GET learner by id', r.gets],
      ['create learner', r.creates],
    ] as const)
      process.stdout.write(
        `| ${r.setup.name} | ${what} | ${f.rps} | ${f.p99} | ${f.failed} | ${f.apiMs} | ${f.postgresMs} | ${f.proxyMs ?? ''} | ${r.backends} | ${r.deliveryP50} | ${r.deliveryMax} |\n`,
      );
}
