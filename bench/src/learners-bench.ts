import { load, printRows, scaledTarget, spawnServer, withPgSchemas, type LoadResult, type Row } from './harness.js';
import { learnerInput } from './fixtures.js';

interface FundiInfo {
  key: string;
  learnerId: string;
  slug: string;
}

async function fundiRows(
  db: 'sqlite' | 'postgres',
  bare: {
    get: number;
    list: number;
    create: number;
    koa: number;
    getCpuUs?: number;
    listCpuUs?: number;
    createCpuUs?: number;
  },
  env: Record<string, string>,
  raw?: { get: LoadResult; list: LoadResult; narrowGet: LoadResult },
): Promise<Row[]> {
  const fundi = await spawnServer<FundiInfo>('fundi.js', { BENCH_DB: db, ...env });
  const headers = { authorization: `Bearer ${fundi.info.key}` };
  try {
    const get = await load({ url: `${fundi.url}/api/v1/learners/${fundi.info.learnerId}`, headers, pid: fundi.pid });
    const list = await load({ url: `${fundi.url}/api/v1/learners?limit=100`, headers, pid: fundi.pid });
    let n = 0;
    const create = await load({
      url: `${fundi.url}/api/v1/learners`,
      method: 'POST',
      headers,
      pid: fundi.pid,
      body: () => JSON.stringify(learnerInput(n++)),
    });
    const sqlite = db === 'sqlite';
    // Against the raw Koa + better-sqlite3 server reading the same rows (SQLite only).
    const againstRaw: Row[] = raw
      ? [
          {
            scenario: `${db}: GET learner by id`,
            result: get,
            baseline: { name: 'raw GET, same row', rps: raw.get.rps, cpuUs: raw.get.cpuUs },
            target: { text: '>= 60% of raw GET', met: get.rps >= 0.6 * raw.get.rps },
          },
          {
            scenario: `${db}: GET learner by id`,
            result: get,
            baseline: { name: 'raw GET, 7-column row', rps: raw.narrowGet.rps, cpuUs: raw.narrowGet.cpuUs },
            target: { text: '>= 60% of raw GET (older, narrower reference)', met: get.rps >= 0.6 * raw.narrowGet.rps },
          },
          {
            scenario: `${db}: list 100 learners`,
            result: list,
            baseline: { name: 'raw list, same rows', rps: raw.list.rps, cpuUs: raw.list.cpuUs },
            target: { text: '>= 70% of raw list', met: list.rps >= 0.7 * raw.list.rps },
          },
        ]
      : [];
    return [
      ...againstRaw,
      {
        scenario: `${db}: GET learner by id`,
        result: get,
        baseline: { name: sqlite ? 'bare Koa' : 'raw Koa+knex GET', rps: bare.get, cpuUs: bare.getCpuUs },
        target: sqlite
          ? { text: '>= 45% of bare Koa, p99 < 10 ms', met: get.rps >= 0.45 * bare.get && get.p99 < 10 }
          : { text: '>= 70% of raw Koa+knex', met: get.rps >= 0.7 * bare.get },
      },
      {
        scenario: `${db}: list 100 learners`,
        result: list,
        baseline: sqlite
          ? { name: 'bare Koa', rps: bare.list }
          : { name: 'raw Koa+knex list', rps: bare.list, cpuUs: bare.listCpuUs },
        target: sqlite
          ? scaledTarget(list, 1500, bare.koa)
          : { text: '>= 70% of raw Koa+knex list', met: list.rps >= 0.7 * bare.list },
      },
      {
        scenario: `${db}: create learner (+audit +outbox)`,
        result: create,
        baseline: sqlite
          ? { name: 'bare Koa', rps: bare.create }
          : { name: 'raw Koa+knex INSERT + audit row', rps: bare.create, cpuUs: bare.createCpuUs },
        target: sqlite
          ? scaledTarget(create, 4000, bare.koa)
          : { text: '>= 60% of raw Koa+knex INSERT + audit row', met: create.rps >= 0.6 * bare.create },
      },
    ];
  } finally {
    await fundi.stop();
  }
}

export async function learnersBench(opts: { postgres: boolean }): Promise<void> {
  const bare = await spawnServer('bare-koa.js');
  const bareGet = await load({ url: `${bare.url}/learner`, pid: bare.pid });
  const bareList = await load({ url: `${bare.url}/list`, pid: bare.pid });
  const bareCreate = await load({ url: `${bare.url}/learner`, method: 'POST', body: JSON.stringify(learnerInput(1)) });
  await bare.stop();
  const raw = await spawnServer<{ learnerId: string; narrowId: string }>('raw-sqlite.js');
  const rawGet = await load({ url: `${raw.url}/${raw.info.learnerId}`, pid: raw.pid });
  const rawNarrowGet = await load({ url: `${raw.url}/narrow/${raw.info.narrowId}`, pid: raw.pid });
  const rawList = await load({ url: `${raw.url}/list`, pid: raw.pid });
  await raw.stop();
  const rows: Row[] = [
    { scenario: 'baseline: bare Koa, same JSON', result: bareGet },
    { scenario: 'baseline: bare Koa, list JSON', result: bareList },
    {
      scenario: 'reference: raw Koa + better-sqlite3 GET, same learner row',
      result: rawGet,
      baseline: { name: 'bare Koa', rps: bareGet.rps },
    },
    {
      scenario: 'reference: raw Koa + better-sqlite3 GET, 7-column row',
      result: rawNarrowGet,
      baseline: { name: 'bare Koa', rps: bareGet.rps },
    },
    {
      scenario: 'reference: raw Koa + better-sqlite3 list of the same 100 rows',
      result: rawList,
      baseline: { name: 'bare Koa list', rps: bareList.rps },
    },
    ...(await fundiRows(
      'sqlite',
      { get: bareGet.rps, list: bareList.rps, create: bareCreate.rps, koa: bareGet.rps },
      {},
      { get: rawGet, list: rawList, narrowGet: rawNarrowGet },
    )),
  ];
  if (opts.postgres) {
    await withPgSchemas(2, async (url, [schema, rawSchema]) => {
      const rawPg = await spawnServer<{ learnerId: string }>('raw-pg.js', {
        BENCH_PG_URL: url,
        BENCH_PG_SCHEMA: rawSchema!,
      });
      const rawPgGet = await load({ url: `${rawPg.url}/${rawPg.info.learnerId}`, pid: rawPg.pid });
      const rawPgList = await load({ url: `${rawPg.url}/list`, pid: rawPg.pid });
      let n = 0;
      const rawPgCreate = await load({
        url: `${rawPg.url}/`,
        method: 'POST',
        pid: rawPg.pid,
        body: () => JSON.stringify(learnerInput(n++)),
      });
      await rawPg.stop();
      rows.push(
        {
          scenario: 'reference: raw Koa + knex GET of the same learner row (Postgres)',
          result: rawPgGet,
          baseline: { name: 'bare Koa', rps: bareGet.rps },
        },
        {
          scenario: 'reference: raw Koa + knex list of the same 100 rows (Postgres)',
          result: rawPgList,
          baseline: { name: 'bare Koa list', rps: bareList.rps },
        },
        {
          scenario: 'reference: raw Koa + knex INSERT of the learner + one audit row, one transaction (Postgres)',
          result: rawPgCreate,
          baseline: { name: 'bare Koa', rps: bareCreate.rps },
        },
      );
      rows.push(
        ...(await fundiRows(
          'postgres',
          {
            get: rawPgGet.rps,
            list: rawPgList.rps,
            create: rawPgCreate.rps,
            koa: bareGet.rps,
            getCpuUs: rawPgGet.cpuUs,
            listCpuUs: rawPgList.cpuUs,
            createCpuUs: rawPgCreate.cpuUs,
          },
          { BENCH_PG_URL: url, BENCH_PG_SCHEMA: schema! },
        )),
      );
    });
  }
  printRows('Learners: 50 connections, autocannon in the same run', rows);
}
