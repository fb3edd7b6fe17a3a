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
export async function auditChainBench(opts: { postgres: boolean }): Promise<void> {
  if (!opts.postgres) {
    process.stdout.write('\n## Audit chain lock: skipped (Postgres only; run without --no-postgres)\n');
    return;
  }
  await withPgSchemas(1, async (url, [schema]) => {
    const fundi = await spawnServer<{ keys: string[] }>('fundi-audit-chain.js', {
      BENCH_DB: 'postgres',
      BENCH_PG_URL: url,
      BENCH_PG_SCHEMA: schema!,
      BENCH_TENANTS: String(TENANTS),
    });
    const keys = fundi.info.keys;
    let n = 0;
    let k = 0;
    const create = (spread: boolean) =>
      load({
        url: `${fundi.url}/api/v1/learners`,
        method: 'POST',
        connections: CONNECTIONS,
        pid: fundi.pid,
        body: () => JSON.stringify(learnerInput(5_000_000 + n++)),
        headersPerRequest: () => ({ authorization: `Bearer ${keys[spread ? k++ % keys.length : 0]}` }),
      });
    const one: LoadResult[] = [];
    const many: LoadResult[] = [];
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
    const spread = mean(many);
    const rows: Row[] = [
      ...many.map((r, i) => ({ scenario: `postgres: create learner, ${TENANTS} tenants, round ${i + 1}`, result: r })),
      ...one.map((r, i) => ({ scenario: `postgres: create learner, 1 tenant, round ${i + 1}`, result: r })),
      {
        scenario: `postgres: create learner, 1 tenant (one chain), mean`,
        result: mean(one),
        baseline: { name: `${TENANTS} tenants (${TENANTS} chains), mean`, rps: spread.rps, cpuUs: spread.cpuUs },
      },
    ];
    printRows(`Audit chain lock: Postgres create learner, ${CONNECTIONS} connections, same server and run`, rows);
  });
}
