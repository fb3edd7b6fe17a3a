import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse';
import { luhnValid } from '@fundi/domain/learners';
import { migrateAll } from '@fundi/server';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { ROWS } from './imports-files.js';

// The imports bench's baselines: the raw floors Fundi's import is measured against in the same run.

/** The raw floor: csv-parse, a Luhn check and a prepared bulk insert into SQLite, 1,000 rows per transaction. */
export async function rawLoop(path: string, dir: string): Promise<number> {
  const start = performance.now();
  const db = new Database(join(dir, 'raw.sqlite'));
  db.pragma('journal_mode = WAL');
  db.exec(
    'CREATE TABLE learners (id TEXT PRIMARY KEY, first_name TEXT, last_name TEXT, id_number TEXT UNIQUE, email TEXT UNIQUE, mobile TEXT, employer TEXT, employee_ref TEXT)',
  );
  const insert = db.prepare('INSERT INTO learners VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const many = db.transaction((rows: string[][]) => {
    for (const r of rows) insert.run(`lrn_${r[2]}`, r[0], r[1], r[2], r[3], r[4], r[10], r[11]);
  });
  let batch: string[][] = [];
  let bad = 0;
  for await (const r of createReadStream(path).pipe(parse({ bom: true, from_line: 2 })) as AsyncIterable<string[]>) {
    if (!/^\d{13}$/.test(r[2]!) || !luhnValid(r[2]!)) {
      bad++;
      continue;
    }
    batch.push(r);
    if (batch.length === 1000) {
      many(batch);
      batch = [];
    }
  }
  many(batch);
  const n = (db.prepare('SELECT COUNT(*) AS n FROM learners').get() as { n: number }).n;
  db.close();
  if (n + bad !== ROWS) throw new Error(`raw loop stored ${n}`);
  return performance.now() - start;
}

/** A value in COPY's text format: `\\N` for null, backslash, tab and line breaks escaped. */
const copyText = (v: string | null) => (v === null ? '\\N' : v.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]!));
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const RAW_PG_COLUMNS =
  'id, tenant_id, first_name, last_name, id_number, email, email_lower, mobile, gender, title, equity_code, home_language_code, province_code, employer, employee_ref, home_address_1, home_postal_code, popi_act_agree, date_of_birth, citizenship, created_at, updated_at';

/**
 * The raw Postgres floor: csv-parse, the same checks as the SQLite loop, and every row streamed into Fundi's own
 * learners table (its migrations, so its indexes) with `COPY ... FROM STDIN` through pg-copy-streams, in one
 * transaction. The migrations and the tenant row are set-up, outside the time.
 */
export async function rawPgLoop(path: string, url: string, schema: string): Promise<number> {
  await migrateAll({ kind: 'postgres', url, searchPath: schema, poolMax: 2 });
  const client = new pg.Client({
    connectionString: url,
    user: new URL(url).username || 'postgres',
    options: `-c search_path=${schema}`,
  });
  await client.connect();
  try {
    const tenantId = 'ten_raw';
    const now = new Date().toISOString();
    await client.query(
      "INSERT INTO tenants (id, slug, name, plan, limit_overrides, created_at) VALUES ($1, 'raw', 'Raw', 'enterprise', '{}', $2)",
      [tenantId, now],
    );
    const start = performance.now();
    let bad = 0;
    const toLines = new Transform({
      writableObjectMode: true,
      transform(r: string[], _enc, done) {
        const id = r[2]!;
        if (!/^\d{13}$/.test(id) || !luhnValid(id)) {
          bad++;
          return done();
        }
        const email = r[3] || null;
        const values = [
          `lrn_${id}`,
          tenantId,
          r[0]!,
          r[1]!,
          id,
          email,
          email?.toLowerCase() ?? null,
          r[4] || null,
          r[5] || null,
          r[6] || null,
          r[7] || null,
          r[8] || null,
          r[9] || null,
          r[10] || null,
          r[11] || null,
          r[12] || null,
          r[13] || null,
          r[14] === 'yes' ? 't' : 'f',
          `19${id.slice(0, 2)}-${id.slice(2, 4)}-${id.slice(4, 6)}`,
          id[10] === '0' ? 'citizen' : 'permanent_resident',
          now,
          now,
        ];
        done(null, `${values.map(copyText).join('\t')}\n`);
      },
    });
    await client.query('BEGIN');
    await pipeline(
      createReadStream(path),
      parse({ bom: true, from_line: 2 }),
      toLines,
      client.query(copyFrom(`COPY learners (${RAW_PG_COLUMNS}) FROM STDIN`)),
    );
    await client.query('COMMIT');
    const ms = performance.now() - start;
    const n = Number((await client.query('SELECT COUNT(*) AS n FROM learners')).rows[0].n);
    if (n + bad !== ROWS) throw new Error(`raw Postgres loop stored ${n}`);
    return ms;
  } finally {
    await client.end();
  }
}
