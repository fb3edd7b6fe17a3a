import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import knexFactory from 'knex';
import Koa from 'koa';
import { useCasesOf } from '@fundi/adapters';
import { httpApp, learners } from '@fundi/server';
import { learnerInput } from './fixtures.js';
import { withPgSchemas } from './harness.js';
import { call, cpuPerRequest, getAndListRounds, listAloneIfAsked, type Callback } from './inprocess-calls.js';
import { scratchDir } from './scratch.js';
import { benchWorld } from './servers/bench-world.js';

/**
 * The learners GET and list on Postgres through Fundi's Koa app and through a raw Koa + knex handler over the same
 * schema and rows, both in this process with no sockets: the CPU this process spends per request (Postgres' own
 * work is in its server process and not counted), which a loaded machine measures far more steadily than req/s.
 */
export async function learnersInProcessPgBench(): Promise<void> {
  await withPgSchemas(1, async (url, [schema]) => {
    process.env.BENCH_DB = 'postgres';
    process.env.BENCH_PG_URL = url;
    process.env.BENCH_PG_SCHEMA = schema!;
    const {
      c,
      config,
      tenant: made,
    } = await benchWorld({
      dir: scratchDir('fundi-inproc-pg-'),
      slug: 'inproc-pg',
      tenantName: 'In',
      followBenchDb: true,
    });
    let learnerId = '';
    for (let i = 0; i < 1000; i++) {
      const l = await useCasesOf(c, learners).registerLearner.execute(made.actor, learnerInput(3_000_000 + i));
      if (i === 500) learnerId = l.id;
    }
    const fundi = httpApp(c, config).callback() as Callback;
    const knex = knexFactory({
      client: 'pg',
      connection: { connectionString: url, user: new URL(url).username || 'postgres' },
      searchPath: [schema!],
      pool: { min: 2, max: 10 },
    });
    const tenantId = made.tenant.id;
    const app = new Koa();
    app.on('error', (e) => process.stderr.write(`raw: ${e}\n`));
    app.use(async (ctx) => {
      if (ctx.path.endsWith('/learners'))
        ctx.body = {
          data: await knex('learners').where({ tenant_id: tenantId }).whereNull('erased_at').orderBy('id').limit(100),
        };
      else
        ctx.body = await knex('learners')
          .where({ tenant_id: tenantId, id: ctx.path.slice(ctx.path.lastIndexOf('/') + 1) })
          .whereNull('erased_at')
          .first();
    });
    const raw = app.callback() as Callback;
    const headers = { host: '127.0.0.1', authorization: `Bearer ${made.apiKey.key}` };
    await call(raw, `/api/v1/learners/${learnerId}`, headers);
    const n = Number(process.env.BENCH_INPROC_N ?? 4_000);
    // BENCH_INPROC_ONLY: one list alone, n requests after n/4 to warm up; with BENCH_INPROC_PROFILE=<file>, a CPU
    // profile of exactly the n measured requests is written there (BENCH_INPROC_HEAP: a heap profile).
    const out = process.env.BENCH_INPROC_PROFILE;
    const heap = process.env.BENCH_INPROC_HEAP;
    const alone = await listAloneIfAsked({ raw, fundi }, 'Postgres', (cb, list) =>
      out
        ? profiled(out, n, (start) => cpuPerRequest(cb, list, headers, n, start))
        : heap
          ? profiled(heap, n, (start) => cpuPerRequest(cb, list, headers, n, start), true)
          : cpuPerRequest(cb, list, headers, n),
    );
    if (alone) {
      await knex.destroy();
      process.stderr.write(alone);
      return;
    }
    const table = await getAndListRounds({ raw, fundi }, headers, learnerId, n, 1 / 10);
    await knex.destroy();
    process.stderr.write(
      `\n## Learners in-process on Postgres: CPU of this process per request, no sockets (raw / Fundi)\n${table}\n`,
    );
  });
}

/**
 * `measure` (which warms up, then calls `start` before its measured requests) under the CPU profiler, or with
 * `allocations` under the sampling heap profiler counting every object allocated, collected or not.
 */
async function profiled(
  file: string,
  n: number,
  measure: (start: () => Promise<unknown>) => Promise<number>,
  allocations = false,
): Promise<number> {
  const session = new Session();
  session.connect();
  let us: number;
  if (allocations) {
    // BENCH_INPROC_LIVE_MS: what is still in the heap (in flight, or promoted and not yet collected) that long
    // into the measured requests, instead of everything they allocated.
    const liveMs = Number(process.env.BENCH_INPROC_LIVE_MS ?? 0);
    let stopped: Promise<unknown> | undefined;
    us = await measure(async () => {
      await session.post('HeapProfiler.startSampling', {
        samplingInterval: 1024,
        includeObjectsCollectedByMajorGC: !liveMs || process.env.BENCH_INPROC_PROMOTED === '1',
        includeObjectsCollectedByMinorGC: !liveMs,
      });
      if (liveMs)
        setTimeout(() => {
          stopped = session.post('HeapProfiler.stopSampling').then(({ profile }) => {
            writeFileSync(file, JSON.stringify(profile));
          });
        }, liveMs);
    });
    if (stopped) await stopped;
    else writeFileSync(file, JSON.stringify((await session.post('HeapProfiler.stopSampling')).profile));
  } else {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    us = await measure(() => session.post('Profiler.start'));
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
  }
  process.stderr.write(`profile of ${n} requests: ${file}\n`);
  session.disconnect();
  return us;
}
