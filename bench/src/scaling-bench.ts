import { availableParallelism } from 'node:os';
import pg from 'pg';
import { withPgSchemas } from './harness.js';
import { PG_URL } from './pg-url.js';
import { printOperations, printStatements } from './scaling/operation-tables.js';
import { measureOperations } from './scaling/operations.js';
import { startRig } from './scaling/rig.js';
import { postgresBin, startPrivatePostgres } from './scaling/private-postgres.js';
import { measureSizes, printSizes } from './scaling/sizes.js';
import { compareProcesses } from './scaling/processes.js';
import { throughPgBouncer } from './scaling/pgbouncer.js';
import type { Place } from './scaling/world.js';

/**
 * `npm run bench -- scaling`: what the main operations cost Postgres, bytes per row of each table, 1+1 against 2+2
 * processes, and PgBouncer in transaction mode (docs/scaling.md). BENCH_SCALING_PARTS picks parts (ops, sizes,
 * processes, pgbouncer; all by default); BENCH_SCALING_SERVER=shared measures the operations on the shared server
 * (BENCH_PG_URL) instead of a private cluster.
 */
export async function scalingBench(_opts: { postgres: boolean }): Promise<void> {
  const parts = (process.env.BENCH_SCALING_PARTS ?? 'ops,sizes,processes,pgbouncer').split(',');
  const shared = process.env.BENCH_SCALING_SERVER === 'shared' || postgresBin() === null;
  process.stdout.write(`\n# Scaling (${new Date().toISOString()}, ${availableParallelism()} cores)\n`);
  if (shared) {
    const u = new URL(PG_URL);
    await withPgSchemas(1, async (_url, [schema]) => {
      const place: Place = { host: u.hostname, port: Number(u.port || 5432), database: u.pathname.slice(1), schema };
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      try {
        await operationsAndSizes(place, admin, null, parts, 'the shared server, a schema of its own');
      } finally {
        await admin.end();
      }
    });
    return;
  }
  const cluster = await startPrivatePostgres();
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  try {
    const place: Place = { host: '127.0.0.1', port: cluster.port, database: 'fundi' };
    await operationsAndSizes(place, admin, cluster.clusterCpuUs, parts, 'a private Postgres 15 cluster');
    if (parts.includes('processes')) await compareProcesses(cluster, admin);
    if (parts.includes('pgbouncer')) await throughPgBouncer(cluster, admin);
  } finally {
    await admin.end();
    cluster.stop();
  }
}

async function operationsAndSizes(
  place: Place,
  admin: pg.Client,
  clusterCpu: (() => number) | null,
  parts: string[],
  where: string,
): Promise<void> {
  if (!parts.includes('ops') && !parts.includes('sizes')) return;
  const rig = await startRig(place, admin, clusterCpu, clusterCpu !== null);
  try {
    const ops = await measureOperations(rig);
    printOperations(ops, where);
    printStatements(ops);
    if (parts.includes('sizes')) printSizes(await measureSizes(rig));
  } finally {
    await rig.close();
  }
}
