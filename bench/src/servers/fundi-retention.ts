import './as-started.js';
import { createServer } from 'node:http';
import { T, resolve, useCasesOf } from '@fundi/adapters';
import { learners, retentionFor } from '@fundi/server';
import { learnerInput } from '../fixtures.js';
import { ON_POSTGRES, benchWorld, serve } from './bench-world.js';

// The real server over a database holding BENCH_RETENTION_JOBS finished jobs (a million by default) 30 days old,
// and a control port: POST /prune runs the retention job's prune in this process (as the embedded worker would),
// GET /prune tells how far it got. The harness loads GET learner by id meanwhile.
const world = await benchWorld({ followBenchDb: true, authCacheMs: ON_POSTGRES ? 1000 : 0 });
const db = resolve(world.c, T.SqlDb);
const register = useCasesOf(world.c, learners).registerLearner;
let learnerId = '';
for (let i = 0; i < 1000; i++) {
  const l = await register.execute(world.tenant.actor, learnerInput(5_000_000 + i));
  if (i === 500) learnerId = l.id;
}

const total = Number(process.env.BENCH_RETENTION_JOBS ?? 1_000_000);
const doneAt = (i: number) => new Date(Date.now() - 30 * 86_400_000 + i).toISOString();
const seedStarted = Date.now();
const CHUNK = 100_000;
for (let from = 0; from < total; from += CHUNK) {
  const n = Math.min(CHUNK, total - from);
  // Each job finished a millisecond after the one before, all a month ago.
  const sql = ON_POSTGRES
    ? `INSERT INTO jobs (id, kind, lane, priority, payload, due_at, attempts, max_attempts, created_at, done_at)
       SELECT 'job_bench' || lpad(i::text, 10, '0'), 'bench.done', 'short', 'normal', '{}', ?, 1, 10, ?,
       to_char((?::timestamptz + i * interval '1 millisecond') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
       FROM generate_series(?::int, ?::int) i`
    : `WITH RECURSIVE n(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO jobs (id, kind, lane, priority, payload, due_at, attempts, max_attempts, created_at, done_at)
       SELECT printf('job_bench%010d', i), 'bench.done', 'short', 'normal', '{}', ?, 1, 10, ?,
       strftime('%Y-%m-%dT%H:%M:%fZ', ?, '+' || (i / 1000.0) || ' seconds') FROM n`;
  const start = doneAt(0);
  await db.run(
    sql,
    ON_POSTGRES ? [start, start, start, from, from + n - 1] : [from, from + n - 1, start, start, start],
  );
}
if (ON_POSTGRES) await db.run('ANALYZE jobs');
const seedMs = Date.now() - seedStarted;

// What the planner does with the prune's statement at this size (Postgres): by the done_at index, never a scan.
const pick = 'SELECT id FROM jobs WHERE done_at IS NOT NULL AND done_at < ? ORDER BY done_at LIMIT ?';
const plan = ON_POSTGRES
  ? (
      await db.all<{ 'QUERY PLAN': string }>(`EXPLAIN DELETE FROM jobs WHERE ${db.dialect.amongPicked('id', pick)}`, [
        new Date(Date.now() - 7 * 86_400_000).toISOString(),
        2000,
      ])
    ).map((r) => r['QUERY PLAN'])
  : (await db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${pick}`, [new Date().toISOString(), 2000])).map(
      (r) => r.detail,
    );

const batch = Number(process.env.BENCH_RETENTION_BATCH ?? 2000);
const retention = retentionFor(world.c, { batch });
let prune: { startedAt: number; endedAt: number | null; rows: number } | null = null;
const control = createServer((req, res) => {
  if (req.method === 'POST' && !prune) {
    const p = (prune = { startedAt: Date.now(), endedAt: null as number | null, rows: 0 });
    void retention.execute().then((pruned) => {
      p.rows = Object.values(pruned).reduce((a, b) => a + b, 0);
      p.endedAt = Date.now();
    });
  }
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(prune));
});
control.listen(0, '127.0.0.1', () => {
  const controlPort = (control.address() as { port: number }).port;
  serve(world, { key: world.tenant.apiKey.key, learnerId, controlPort, total, seedMs, plan, batch });
});
