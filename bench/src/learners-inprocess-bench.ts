import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import Koa from 'koa';
import { T, resolve, useCasesOf, type DatabaseTarget } from '@fundi/adapters';
import { operator } from '@fundi/application';
import { containerFor, httpApp, learners, migrateAll, tenants } from '@fundi/server';
import { learnerInput } from './fixtures.js';
import { scratchDir } from './scratch.js';

type Callback = (req: IncomingMessage, res: ServerResponse) => unknown;

/** One request through a Koa callback without a socket; resolves when the answer is complete. */
function call(cb: Callback, url: string, headers: Record<string, string>): Promise<void> {
  return new Promise((ok, fail) => {
    const req = new IncomingMessage(new Socket());
    req.method = 'GET';
    req.url = url;
    req.headers = headers;
    req.push(null);
    const res = new ServerResponse(req);
    res.end = function (this: ServerResponse) {
      if (this.statusCode !== 200) fail(new Error(`${url} answered ${this.statusCode}`));
      else ok();
      return this;
    } as ServerResponse['end'];
    cb(req, res);
  });
}

/** CPU µs per request (user + system of this process) over `n` sequential requests, after n/4 to warm up. */
async function cpuPerRequest(cb: Callback, url: string, headers: Record<string, string>, n: number) {
  for (let i = 0; i < n / 4; i++) await call(cb, url, headers);
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) await call(cb, url, headers);
  const used = process.cpuUsage(before);
  return Math.round(((used.user + used.system) / n) * 10) / 10;
}

/**
 * The learners GET and list through Fundi's Koa app and through a raw Koa + better-sqlite3 handler over the same
 * database, both in this process with no sockets: the CPU the app itself spends per request, which a machine
 * shared with other work measures far more steadily than req/s over HTTP. Access lines go to stdout.
 */
export async function learnersInProcessBench(): Promise<void> {
  const database: DatabaseTarget = {
    kind: 'sqlite',
    filename: join(scratchDir('fundi-inproc-'), 'f.sqlite'),
  };
  await migrateAll(database);
  const config = {
    database,
    masterKey: Buffer.alloc(32, 1),
    logLevel: 'info',
    authCacheMs: 0,
    anonymousLimits: { perMinute: 100, perDay: null },
    trustProxy: false,
  };
  const c = containerFor(config);
  const made = await useCasesOf(c, tenants).createTenant.execute({ slug: 'inproc', name: 'In', plan: 'enterprise' });
  await resolve(c, T.SqlDb).run('UPDATE tenants SET limit_overrides = ? WHERE id = ?', [
    JSON.stringify({ perMinute: 1_000_000_000, perDay: null }),
    made.tenant.id,
  ]);
  let learnerId = '';
  for (let i = 0; i < 1000; i++) {
    const l = await useCasesOf(c, learners).registerLearner.execute(
      operator(made.tenant.id),
      learnerInput(3_000_000 + i),
    );
    if (i === 500) learnerId = l.id;
  }
  const fundi = httpApp(c, config).callback() as Callback;
  const db = new Database(database.filename, { readonly: true });
  const one = db.prepare('SELECT * FROM learners WHERE tenant_id = ? AND erased_at IS NULL AND id = ?').raw(true);
  const hundred = db
    .prepare('SELECT * FROM learners WHERE tenant_id = ? AND erased_at IS NULL ORDER BY id LIMIT 100')
    .raw(true);
  const literal = one
    .columns()
    .map((col, i) => `${JSON.stringify(col.name)}: r[${i}]`)
    .join(', ');
  const rowOf = new Function('r', `return { ${literal} };`) as (r: unknown[]) => Record<string, unknown>;
  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.path.endsWith('/learners')) ctx.body = { data: (hundred.all(made.tenant.id) as unknown[][]).map(rowOf) };
    else ctx.body = rowOf(one.get(made.tenant.id, ctx.path.slice(ctx.path.lastIndexOf('/') + 1)) as unknown[]);
  });
  const raw = app.callback() as Callback;
  const headers = { host: '127.0.0.1', authorization: `Bearer ${made.apiKey.key}` };
  const n = Number(process.env.BENCH_INPROC_N ?? 20_000);
  const lines = [
    '| round | raw GET µs | Fundi GET µs | ratio | raw list µs | Fundi list µs | ratio |',
    '|---|---|---|---|---|---|---|',
  ];
  for (let round = 1; round <= 3; round++) {
    const get = `/api/v1/learners/${learnerId}`;
    const list = '/api/v1/learners?limit=100';
    const rg = await cpuPerRequest(raw, get, headers, n);
    const fg = await cpuPerRequest(fundi, get, headers, n);
    const rl = await cpuPerRequest(raw, list, headers, n / 20);
    const fl = await cpuPerRequest(fundi, list, headers, n / 20);
    lines.push(
      `| ${round} | ${rg} | ${fg} | ${((rg / fg) * 100).toFixed(1)}% | ${rl} | ${fl} | ${((rl / fl) * 100).toFixed(1)}% |`,
    );
  }
  db.close();
  process.stderr.write(`\n## Learners in-process: CPU per request, no sockets (raw / Fundi)\n${lines.join('\n')}\n`);
}
