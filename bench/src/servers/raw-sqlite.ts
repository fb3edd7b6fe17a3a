import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import Koa from 'koa';
import { announce } from './ready.js';

// Reference: raw Koa + better-sqlite3 GET by id, no auth, rate limiting or logging.
const db = new Database(join(mkdtempSync(join(tmpdir(), 'fundi-raw-')), 'raw.sqlite'));
db.pragma('journal_mode = WAL');
db.exec(
  'CREATE TABLE learners (id TEXT PRIMARY KEY, tenant_id TEXT, first_name TEXT, last_name TEXT, id_number TEXT, email TEXT, created_at TEXT)',
);
const insert = db.prepare('INSERT INTO learners VALUES (?, ?, ?, ?, ?, ?, ?)');
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
const get = db.prepare('SELECT * FROM learners WHERE tenant_id = ? AND id = ?');
const app = new Koa();
app.use(async (ctx) => {
  const row = get.get('t', ctx.path.slice(1));
  if (!row) ctx.status = 404;
  else ctx.body = row;
});
const server = app.listen(0, '127.0.0.1', () => announce(server, { learnerId: 'lrn_500' }));
