import { load, printRows, scaledTarget, spawnServer, withPgSchemas, type Row } from './harness.js';

interface TrainingInfo {
  key: string;
  enrolmentId: string;
  learnerIds: string[];
  modules: string[];
}

async function fundiRows(
  db: 'sqlite' | 'postgres',
  bare: { get: number; post: number },
  env: Record<string, string>,
): Promise<Row[]> {
  const fundi = await spawnServer<TrainingInfo>('fundi-training.js', { BENCH_DB: db, ...env });
  const headers = { authorization: `Bearer ${fundi.info.key}` };
  const share = db === 'sqlite' ? 1 : 0.7;
  try {
    const get = await load({ url: `${fundi.url}/api/v1/enrolments/${fundi.info.enrolmentId}`, headers });
    const { learnerIds, modules } = fundi.info;
    let n = 0;
    const body = () => {
      n++;
      return JSON.stringify({
        learnerId: learnerIds[n % learnerIds.length],
        moduleCode: modules[n % modules.length],
        assessmentType: n % 3 ? 'summative' : 'formative',
        outcome: n % 5 ? 'C' : 'NYC',
        assessmentDate: '2025-06-02',
      });
    };
    const post = await load({ url: `${fundi.url}/api/v1/assessments`, method: 'POST', headers, body });
    return [
      {
        scenario: `${db}: GET enrolment with progress (30 modules, 20 assessments)`,
        result: get,
        baseline: { name: 'bare Koa', rps: bare.get },
        target: scaledTarget(get, 1500, bare.get, share),
      },
      {
        scenario: `${db}: POST assessment (+audit +2 outbox events)`,
        result: post,
        baseline: { name: 'bare Koa', rps: bare.post },
        target: scaledTarget(post, 1000, bare.get, share),
      },
    ];
  } finally {
    await fundi.stop();
  }
}

export async function trainingBench(opts: { postgres: boolean }): Promise<void> {
  const bare = await spawnServer('bare-koa.js');
  const bareGet = await load({ url: `${bare.url}/learner` });
  const barePost = await load({ url: `${bare.url}/learner`, method: 'POST', body: '{"learnerId":"x"}' });
  await bare.stop();
  const rows: Row[] = [
    { scenario: 'baseline: bare Koa, same size JSON', result: bareGet },
    ...(await fundiRows('sqlite', { get: bareGet.rps, post: barePost.rps }, {})),
  ];
  if (opts.postgres) {
    await withPgSchemas(1, async (url, [schema]) => {
      rows.push(
        ...(await fundiRows(
          'postgres',
          { get: bareGet.rps, post: barePost.rps },
          { BENCH_PG_URL: url, BENCH_PG_SCHEMA: schema! },
        )),
      );
    });
  }
  printRows('Training record: 50 connections, autocannon in the same run', rows);
}
