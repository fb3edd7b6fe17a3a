import Database from 'better-sqlite3';
import Koa from 'koa';
import { useCasesOf } from '@fundi/adapters';
import { httpApp, learners } from '@fundi/server';
import { learnerInput } from './fixtures.js';
import { scratchDir } from './scratch.js';
import { benchWorld, sqliteFile } from './servers/bench-world.js';
import { rawLearnerReads } from './servers/raw-learners.js';
import { cpuPerRequest, getAndListRounds, listAloneIfAsked, type Callback } from './inprocess-calls.js';

/**
 * The learners GET and list through Fundi's Koa app and through a raw Koa + better-sqlite3 handler over the same
 * database, both in this process with no sockets: the CPU the app itself spends per request, which a machine
 * shared with other work measures far more steadily than req/s over HTTP. Access lines go to stdout.
 */
export async function learnersInProcessBench(): Promise<void> {
  const {
    c,
    config,
    database,
    tenant: made,
  } = await benchWorld({
    dir: scratchDir('fundi-inproc-'),
    slug: 'inproc',
    tenantName: 'In',
  });
  let learnerId = '';
  for (let i = 0; i < 1000; i++) {
    const l = await useCasesOf(c, learners).registerLearner.execute(made.actor, learnerInput(3_000_000 + i));
    if (i === 500) learnerId = l.id;
  }
  const fundi = httpApp(c, config).callback() as Callback;
  const db = new Database(sqliteFile(database), { readonly: true });
  const { one, hundred, rowOf } = rawLearnerReads(db);
  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.path.endsWith('/learners')) ctx.body = { data: (hundred.all(made.tenant.id) as unknown[][]).map(rowOf) };
    else ctx.body = rowOf(one.get(made.tenant.id, ctx.path.slice(ctx.path.lastIndexOf('/') + 1)) as unknown[]);
  });
  const raw = app.callback() as Callback;
  const headers = { host: '127.0.0.1', authorization: `Bearer ${made.apiKey.key}` };
  const n = Number(process.env.BENCH_INPROC_N ?? 20_000);
  // BENCH_INPROC_ONLY: one list alone, n/20 requests after n/80 to warm up.
  const alone = await listAloneIfAsked({ raw, fundi }, 'SQLite', (cb, url) => cpuPerRequest(cb, url, headers, n / 20));
  if (alone) {
    db.close();
    process.stderr.write(alone);
    return;
  }
  const table = await getAndListRounds({ raw, fundi }, headers, learnerId, n, 1 / 20);
  db.close();
  process.stderr.write(`\n## Learners in-process: CPU per request, no sockets (raw / Fundi)\n${table}\n`);
}
