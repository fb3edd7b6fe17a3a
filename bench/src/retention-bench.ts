import { load, printRows, spawnServer, withPgSchemas, type Row } from './harness.js';

interface Info {
  key: string;
  learnerId: string;
  controlPort: number;
  total: number;
  seedMs: number;
  plan: string[];
  batch: number;
}

interface PruneState {
  startedAt: number;
  endedAt: number | null;
  rows: number;
}

/**
 * A million finished jobs pruned by the retention job in the server's own process (as the embedded worker runs it)
 * while GET learner by id is under load: the GET's latency during the prune beside the same load without it, in the
 * same run, and the prune's rows per second.
 */
async function rows(db: 'sqlite' | 'postgres', env: Record<string, string>): Promise<Row[]> {
  const fundi = await spawnServer<Info>('fundi-retention.js', { BENCH_DB: db, ...env });
  const control = `http://127.0.0.1:${fundi.info.controlPort}/prune`;
  const state = async (method = 'GET') => (await (await fetch(control, { method })).json()) as PruneState | null;
  try {
    const get = () =>
      load({
        url: `${fundi.url}/api/v1/learners/${fundi.info.learnerId}`,
        headers: { authorization: `Bearer ${fundi.info.key}` },
        connections: 10,
        pid: fundi.pid,
      });
    const without = await get();
    await state('POST');
    const during = await get();
    const stillRunning = (await state())!.endedAt === null;
    let s = (await state())!;
    const deadline = Date.now() + 600_000;
    while (s.endedAt === null && Date.now() < deadline) {
      await new Promise((ok) => setTimeout(ok, 250));
      s = (await state())!;
    }
    const ms = (s.endedAt ?? Date.now()) - s.startedAt;
    process.stdout.write(
      `\n${db}: seeded ${fundi.info.total.toLocaleString('en')} finished jobs in ${(fundi.info.seedMs / 1000).toFixed(1)} s; ` +
        `pruned ${s.rows.toLocaleString('en')} in ${(ms / 1000).toFixed(1)} s (batches of up to ${fundi.info.batch} rows${db === 'sqlite' ? ', halved while one takes over 20 ms, as long a rest after each' : ''}): ` +
        `${Math.round((s.rows / ms) * 1000).toLocaleString('en')} rows/s${s.endedAt === null ? ' (NOT FINISHED in 10 min)' : ''}; ` +
        `the prune ${stillRunning ? 'ran for the whole measured load' : 'ended before the measured load did'}\n` +
        `${db}: plan of the prune's pick: ${fundi.info.plan.join(' / ')}\n`,
    );
    return [
      { scenario: `${db}: GET learner by id, no prune`, result: without },
      {
        scenario: `${db}: GET learner by id, during the prune`,
        result: during,
        baseline: { name: 'no prune', rps: without.rps, cpuUs: without.cpuUs },
        target: {
          text: `p99 within 2x of no prune (${without.p99} ms) and the prune finished`,
          met: during.p99 <= 2 * Math.max(without.p99, 1) && s.endedAt !== null && during.non2xx === 0,
        },
      },
    ];
  } finally {
    await fundi.stop();
  }
}

export async function retentionBench(opts: { postgres: boolean }): Promise<void> {
  const all = await rows('sqlite', {});
  if (opts.postgres)
    await withPgSchemas(1, async (url, [schema]) => {
      all.push(...(await rows('postgres', { BENCH_PG_URL: url, BENCH_PG_SCHEMA: schema! })));
    });
  printRows('Retention: a million finished jobs pruned while GET learner by id is under load (10 connections)', all);
}
