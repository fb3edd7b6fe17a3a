import { createRequire } from 'node:module';
import { finished } from 'node:stream/promises';
import type pg from 'pg';
import type { from as copyFrom } from 'pg-copy-streams';
import type { Binding } from './statements.js';

let copyStreams: typeof copyFrom | null = null;
/** pg-copy-streams' `from`, loaded with the first bulk load (the embedded SQLite default never needs it). */
function copyFromStream(): typeof copyFrom {
  copyStreams ??= (createRequire(import.meta.url)('pg-copy-streams') as { from: typeof copyFrom }).from;
  return copyStreams;
}

const ESCAPED = /[\\\t\n\r]/;
const ESCAPES = /[\\\t\n\r]/g;
const ESCAPE: Readonly<Record<string, string>> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * One value in COPY's text format: `\N` for null, `t`/`f` for true/false, text with its backslashes, tabs and line
 * breaks escaped (the only characters the format gives a meaning; everything else, quotes and any Unicode, is taken
 * as it is).
 */
function copyValue(v: Binding): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'boolean') return v ? 't' : 'f';
  const s = typeof v === 'string' ? v : String(v);
  return ESCAPED.test(s) ? s.replace(ESCAPES, (c) => ESCAPE[c]!) : s;
}

/**
 * `rows` as the data of `COPY ... FROM STDIN` (text format): a line per row, its values separated by tabs, written
 * as UTF-8 into one Buffer. A row's values are joined into one flat string (a `+=` per value made a string object
 * per value, 4.6 million for an import's 100,000 learners) and written in place; a row may be an array the caller
 * reuses for the next row (docs/performance.md, "Imports on Postgres").
 */
export function copyText(rows: Iterable<readonly Binding[]>): Buffer {
  let buf = Buffer.allocUnsafe(64 * 1024);
  let at = 0;
  const values: string[] = [];
  for (const row of rows) {
    values.length = row.length;
    for (let i = 0; i < row.length; i++) values[i] = copyValue(row[i]);
    const line = values.join('\t');
    // At most 3 bytes of UTF-8 per UTF-16 unit, and the line feed.
    const need = at + line.length * 3 + 1;
    if (need > buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(need, buf.length * 2));
      buf.copy(grown, 0, 0, at);
      buf = grown;
    }
    at += buf.write(line, at);
    buf[at++] = 0x0a;
  }
  return buf.subarray(0, at);
}

/**
 * Streams `rows` into `table` (its `columns`) with `COPY ... FROM STDIN` on `client`, and resolves once Postgres
 * has taken them (its ReadyForQuery after the copy), so the next statement may follow on the same client. A row
 * Postgres refuses (a unique violation, a value of the wrong type) fails the whole copy with Postgres' error, as an
 * INSERT of the same rows would; nothing of it is kept.
 */
export async function copyRowsOn(
  client: Pick<pg.PoolClient, 'query'>,
  table: string,
  columns: readonly string[],
  rows: Iterable<readonly Binding[]>,
): Promise<void> {
  const data = copyText(rows);
  if (!data.length) return;
  const stream = client.query(copyFromStream()(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
  stream.end(data);
  await finished(stream);
}
