import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createAccessLog } from '@fundi/adapters';
import Database from 'better-sqlite3';
import Koa from 'koa';
import { announce } from './ready.js';
import { scratchDir } from '../scratch.js';
import { rawLearnerReads, seedRawLearners } from './raw-learners.js';

// Reference: raw Koa + better-sqlite3 over the same learners table and rows Fundi serves (its migrations, 1,000
// learners), with no auth, rate limiting, logging, validation or mapping: what a hand-written endpoint costs.
//   GET /{id}         one learner row, JSON'd
//   GET /list         the first 100 rows of the tenant in id order, JSON'd as {data: [...]}
//   GET /narrow/{id}  the older reference: a 7-column row of a table of its own
//   GET /contract/{id} the same row as GET /{id}, with what the API's contract adds to every answer and request
//                     and nothing else: the `X-Request-Id` header (a random UUID), the three rate-limit headers
//                     (a count that goes down) and one access line through Fundi's own access log, written to
//                     stdout as Fundi's is (docs/api.md, "Errors" and "Rate limits"). No key, no limit is
//                     checked: what the contract's output alone costs beside the raw GET.
// Wide rows are read in raw (array) mode and built as one object literal each (rawLearnerReads), so the
// reference is what a tuned hand-written endpoint does, not a naive one.
const filename = join(scratchDir('fundi-raw-'), 'raw.sqlite');
const { tenantId, learnerId } = await seedRawLearners({ kind: 'sqlite', filename }, 3_000_000);

const db = new Database(filename);
db.pragma('journal_mode = WAL');
db.exec(
  'CREATE TABLE narrow_learners (id TEXT PRIMARY KEY, tenant_id TEXT, first_name TEXT, last_name TEXT, id_number TEXT, email TEXT, created_at TEXT)',
);
const insert = db.prepare('INSERT INTO narrow_learners VALUES (?, ?, ?, ?, ?, ?, ?)');
for (let i = 0; i < 1000; i++)
  insert.run(
    `lrn_${i}`,
    't',
    `First${i}`,
    `Last${i}`,
    String(9001049818080 + i),
    `l${i}@x.co.za`,
    new Date().toISOString(),
  );
const narrow = db.prepare('SELECT * FROM narrow_learners WHERE tenant_id = ? AND id = ?');
const { one, hundred, rowOf } = rawLearnerReads(db);
const accessLog = createAccessLog('info');
let remaining = 1_000_000_000;
const app = new Koa();
app.use(async (ctx) => {
  if (ctx.path.startsWith('/contract/')) {
    const started = performance.now();
    const requestId = randomUUID();
    const res = ctx.res;
    res.setHeader('X-Request-Id', requestId);
    res.setHeader('X-RateLimit-Limit', '1000000000');
    res.setHeader('X-RateLimit-Remaining', String(--remaining));
    res.setHeader('X-RateLimit-Reset', String(Math.ceil(Date.now() / 60_000) * 60));
    const raw = one.get(tenantId, ctx.path.slice(10)) as unknown[] | undefined;
    if (!raw) ctx.status = 404;
    else ctx.body = rowOf(raw);
    accessLog.request({
      requestId,
      method: ctx.method,
      path: ctx.path,
      status: ctx.status,
      ms: Math.round((performance.now() - started) * 100) / 100,
      key: 'key_01bench0000000000000000000',
    });
    return;
  }
  if (ctx.path === '/list') {
    ctx.body = { data: (hundred.all(tenantId) as unknown[][]).map(rowOf) };
    return;
  }
  if (ctx.path.startsWith('/narrow/')) {
    const row = narrow.get('t', ctx.path.slice(8));
    if (!row) ctx.status = 404;
    else ctx.body = row;
    return;
  }
  const raw = one.get(tenantId, ctx.path.slice(1)) as unknown[] | undefined;
  if (!raw) ctx.status = 404;
  else ctx.body = rowOf(raw);
});
const server = app.listen(0, '127.0.0.1', () => announce(server, { learnerId, narrowId: 'lrn_500' }));
