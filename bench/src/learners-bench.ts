import {
  alternating,
  load,
  printRows,
  scaledTarget,
  spawnServer,
  withPgSchemas,
  type LoadResult,
  type Row,
} from './harness.js';
import { learnerInput } from './fixtures.js';

interface FundiInfo {
  key: string;
  learnerId: string;
  slug: string;
}

/** The three loads against a Fundi server: GET by id, list of 100, create. */
function fundiLoads(fundi: { url: string; pid: number; info: FundiInfo }) {
  const headers = { authorization: `Bearer ${fundi.info.key}` };
  let n = 0;
  return {
    get: () => load({ url: `${fundi.url}/api/v1/learners/${fundi.info.learnerId}`, headers, pid: fundi.pid }),
    list: () => load({ url: `${fundi.url}/api/v1/learners?limit=100`, headers, pid: fundi.pid }),
    create: () =>
      load({
        url: `${fundi.url}/api/v1/learners`,
        method: 'POST',
        headers,
        pid: fundi.pid,
        body: () => JSON.stringify(learnerInput(n++)),
      }),
  };
}

const against = (
  scenario: string,
  result: LoadResult,
  name: string,
  base: LoadResult,
  share: number,
  text: string,
): Row => ({
  scenario,
  result,
  baseline: { name, rps: base.rps, cpuUs: base.cpuUs },
  target: { text, met: result.rps >= share * base.rps },
});

// Each Fundi figure is measured in turns with the raw handler it is compared with (`alternating`: both servers up,
// BENCH_ROUNDS rounds, medians), so the machine's load moves both alike.
export async function learnersBench(opts: { postgres: boolean }): Promise<void> {
  const bare = await spawnServer('bare-koa.js');
  const bareGet = await load({ url: `${bare.url}/learner`, pid: bare.pid });
  const bareList = await load({ url: `${bare.url}/list`, pid: bare.pid });
  const bareCreate = await load({ url: `${bare.url}/learner`, method: 'POST', body: JSON.stringify(learnerInput(1)) });
  await bare.stop();
  const raw = await spawnServer<{ learnerId: string; narrowId: string }>('raw-sqlite.js');
  const fundi = await spawnServer<FundiInfo>('fundi.js', { BENCH_DB: 'sqlite' });
  const f = fundiLoads(fundi);
  const get = await alternating({
    raw: () => load({ url: `${raw.url}/${raw.info.learnerId}`, pid: raw.pid }),
    narrow: () => load({ url: `${raw.url}/narrow/${raw.info.narrowId}`, pid: raw.pid }),
    contract: () => load({ url: `${raw.url}/contract/${raw.info.learnerId}`, pid: raw.pid }),
    fundi: f.get,
  });
  const list = await alternating({ raw: () => load({ url: `${raw.url}/list`, pid: raw.pid }), fundi: f.list });
  const create = await f.create();
  await raw.stop();
  await fundi.stop();
  const rows: Row[] = [
    { scenario: 'baseline: bare Koa, same JSON', result: bareGet },
    { scenario: 'baseline: bare Koa, list JSON', result: bareList },
    {
      scenario: 'reference: raw Koa + better-sqlite3 GET, same learner row',
      result: get.raw,
      baseline: { name: 'bare Koa', rps: bareGet.rps },
    },
    {
      scenario: 'reference: raw Koa + better-sqlite3 GET, 7-column row',
      result: get.narrow,
      baseline: { name: 'bare Koa', rps: bareGet.rps },
    },
    {
      scenario: "reference: the raw GET with the contract's output (request id, 3 rate-limit headers, access line)",
      result: get.contract,
      baseline: { name: 'raw GET, same row', rps: get.raw.rps, cpuUs: get.raw.cpuUs },
    },
    {
      scenario: 'reference: raw Koa + better-sqlite3 list of the same 100 rows',
      result: list.raw,
      baseline: { name: 'bare Koa list', rps: bareList.rps },
    },
    against('sqlite: GET learner by id', get.fundi, 'raw GET, same row', get.raw, 0.85, '>= 85% of raw GET'),
    {
      scenario: 'sqlite: GET learner by id',
      result: get.fundi,
      baseline: { name: "raw GET with the contract's output", rps: get.contract.rps, cpuUs: get.contract.cpuUs },
    },
    against(
      'sqlite: GET learner by id',
      get.fundi,
      'raw GET, 7-column row',
      get.narrow,
      0.6,
      '>= 60% of raw GET (older, narrower reference)',
    ),
    against('sqlite: list 100 learners', list.fundi, 'raw list, same rows', list.raw, 0.7, '>= 70% of raw list'),
    {
      scenario: 'sqlite: GET learner by id',
      result: get.fundi,
      baseline: { name: 'bare Koa', rps: bareGet.rps },
      target: {
        text: '>= 45% of bare Koa, p99 < 10 ms',
        met: get.fundi.rps >= 0.45 * bareGet.rps && get.fundi.p99 < 10,
      },
    },
    {
      scenario: 'sqlite: list 100 learners',
      result: list.fundi,
      baseline: { name: 'bare Koa', rps: bareList.rps },
      target: scaledTarget(list.fundi, 1500, bareGet.rps),
    },
    {
      scenario: 'sqlite: create learner (+audit +outbox)',
      result: create,
      baseline: { name: 'bare Koa', rps: bareCreate.rps },
      target: scaledTarget(create, 4000, bareGet.rps),
    },
  ];
  if (opts.postgres) {
    await withPgSchemas(2, async (url, [schema, rawSchema]) => {
      const rawPg = await spawnServer<{ learnerId: string }>('raw-pg.js', {
        BENCH_PG_URL: url,
        BENCH_PG_SCHEMA: rawSchema!,
      });
      const fundiPg = await spawnServer<FundiInfo>('fundi.js', {
        BENCH_DB: 'postgres',
        BENCH_PG_URL: url,
        BENCH_PG_SCHEMA: schema!,
      });
      const fp = fundiLoads(fundiPg);
      let n = 0;
      try {
        const pgGet = await alternating({
          raw: () => load({ url: `${rawPg.url}/${rawPg.info.learnerId}`, pid: rawPg.pid }),
          fundi: fp.get,
        });
        const pgList = await alternating({
          raw: () => load({ url: `${rawPg.url}/list`, pid: rawPg.pid }),
          fundi: fp.list,
        });
        const pgCreate = await alternating({
          raw: () =>
            load({
              url: `${rawPg.url}/`,
              method: 'POST',
              pid: rawPg.pid,
              body: () => JSON.stringify(learnerInput(n++)),
            }),
          fundi: fp.create,
        });
        rows.push(
          {
            scenario: 'reference: raw Koa + knex GET of the same learner row (Postgres)',
            result: pgGet.raw,
            baseline: { name: 'bare Koa', rps: bareGet.rps },
          },
          {
            scenario: 'reference: raw Koa + knex list of the same 100 rows (Postgres)',
            result: pgList.raw,
            baseline: { name: 'bare Koa list', rps: bareList.rps },
          },
          {
            scenario: 'reference: raw Koa + knex INSERT of the learner + one audit row, one transaction (Postgres)',
            result: pgCreate.raw,
            baseline: { name: 'bare Koa', rps: bareCreate.rps },
          },
          against(
            'postgres: GET learner by id',
            pgGet.fundi,
            'raw Koa+knex GET',
            pgGet.raw,
            0.7,
            '>= 70% of raw Koa+knex',
          ),
          against(
            'postgres: list 100 learners',
            pgList.fundi,
            'raw Koa+knex list',
            pgList.raw,
            0.7,
            '>= 70% of raw Koa+knex list',
          ),
          against(
            'postgres: create learner (+audit +outbox)',
            pgCreate.fundi,
            'raw Koa+knex INSERT + audit row',
            pgCreate.raw,
            0.6,
            '>= 60% of raw Koa+knex INSERT + audit row',
          ),
        );
      } finally {
        await rawPg.stop();
        await fundiPg.stop();
      }
    });
  }
  printRows('Learners: 50 connections, autocannon in the same run', rows);
}
