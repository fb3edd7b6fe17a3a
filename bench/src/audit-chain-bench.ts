import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { load, printRows, spawnServer, withPgSchemas, type LoadResult, type Row } from './harness.js';
import { learnerInput } from './fixtures.js';

const TENANTS = 8;
const CONNECTIONS = 16;

/**
 * `npm run bench -- audit-chain`: what the per-tenant audit chain's head-row lock costs on Postgres
 * (docs/performance.md, "The audit chain's lock"). Every create appends to its tenant's hash chain after locking the
 * tenant's row in `audit_heads` until it commits, so one tenant's writers commit one at a time. The same server
 * creates learners at 16 connections with one tenant's key (one chain, one lock), then with the writes spread over
 * 8 tenants (8 chains), alternately twice so that drift (the table growing, the machine's other load) falls on both.
 */
/**
 * Samples, every 20 ms while `work` runs, how many of the server's connections (those of `appName`) are busy in a
 * statement and how many of those wait for a lock: the chain's head row is the only lock creates contend for.
 */
async function sampled<T>(url: string, appName: string, work: () => Promise<T>) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  let busy = 0;
  let waiting = 0;
  let samples = 0;
  let stop = false;
  const sampler = (async () => {
    while (!stop) {
      const r = await c.query<{ busy: string; waiting: string }>(
        `SELECT count(*) FILTER (WHERE state = 'active') AS busy,
                count(*) FILTER (WHERE state = 'active' AND wait_event_type = 'Lock') AS waiting
         FROM pg_stat_activity WHERE application_name = $1`,
        [appName],
      );
      busy += Number(r.rows[0]!.busy);
      waiting += Number(r.rows[0]!.waiting);
      samples++;
      await new Promise((ok) => setTimeout(ok, 20));
    }
  })();
  try {
    const result = await work();
    return { result, busy: busy / Math.max(1, samples), waiting: waiting / Math.max(1, samples) };
  } finally {
    stop = true;
    await sampler;
    await c.end();
  }
}

export async function auditChainBench(opts: { postgres: boolean }): Promise<void> {
  if (!opts.postgres) {
    process.stdout.write('\n## Audit chain lock: skipped (Postgres only; run without --no-postgres)\n');
    return;
  }
  await withPgSchemas(1, async (url, [schema]) => {
    const appName = `fundi-audit-chain-${randomBytes(4).toString('hex')}`;
    const fundi = await spawnServer<{ keys: string[] }>('fundi-audit-chain.js', {
      BENCH_DB: 'postgres',
      BENCH_PG_URL: url,
      BENCH_PG_SCHEMA: schema!,
      BENCH_TENANTS: String(TENANTS),
      PGAPPNAME: appName,
    });
    const keys = fundi.info.keys;
    let n = 0;
    let k = 0;
    const create = (spread: boolean) =>
      sampled(url, appName, () =>
        load({
          url: `${fundi.url}/api/v1/learners`,
          method: 'POST',
          connections: CONNECTIONS,
          pid: fundi.pid,
          body: () => JSON.stringify(learnerInput(5_000_000 + n++)),
          headersPerRequest: () => ({ authorization: `Bearer ${keys[spread ? k++ % keys.length : 0]}` }),
        }),
      );
    type Run = Awaited<ReturnType<typeof create>>;
    const one: Run[] = [];
    const many: Run[] = [];
    try {
      for (let round = 0; round < 2; round++) {
        one.push(await create(false));
        many.push(await create(true));
      }
    } finally {
      await fundi.stop();
    }
    const mean = (rs: LoadResult[]): LoadResult => ({
      rps: Math.round(rs.reduce((a, r) => a + r.rps, 0) / rs.length),
      p50: Math.round(rs.reduce((a, r) => a + r.p50, 0) / rs.length),
      p99: Math.round(rs.reduce((a, r) => a + r.p99, 0) / rs.length),
      total: rs.reduce((a, r) => a + r.total, 0),
      non2xx: rs.reduce((a, r) => a + r.non2xx, 0),
      errors: rs.reduce((a, r) => a + r.errors, 0),
      ...(rs.every((r) => r.cpuUs) ? { cpuUs: Math.round(rs.reduce((a, r) => a + r.cpuUs!, 0) / rs.length) } : {}),
    });
    const spread = mean(many.map((r) => r.result));
    const waits = (rs: Run[]) =>
      `${(rs.reduce((a, r) => a + r.waiting, 0) / rs.length).toFixed(1)} of ${(rs.reduce((a, r) => a + r.busy, 0) / rs.length).toFixed(1)} busy connections waiting for a lock`;
    const rows: Row[] = [
      ...many.map((r, i) => ({
        scenario: `postgres: create learner, ${TENANTS} tenants, round ${i + 1} (${waits([r])})`,
        result: r.result,
      })),
      ...one.map((r, i) => ({
        scenario: `postgres: create learner, 1 tenant, round ${i + 1} (${waits([r])})`,
        result: r.result,
      })),
      {
        scenario: `postgres: create learner, 1 tenant (one chain), mean (${waits(one)})`,
        result: mean(one.map((r) => r.result)),
        baseline: { name: `${TENANTS} tenants (${TENANTS} chains), mean`, rps: spread.rps, cpuUs: spread.cpuUs },
      },
    ];
    printRows(`Audit chain lock: Postgres create learner, ${CONNECTIONS} connections, same server and run`, rows);
  });
}
