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

/** `rows` as the data of `COPY ... FROM STDIN` (text format): a line per row, its values separated by tabs. */
export function copyText(rows: readonly (readonly Binding[])[]): string {
  let out = '';
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) out += (i ? '\t' : '') + copyValue(row[i]);
    out += '\n';
  }
  return out;
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
  rows: readonly (readonly Binding[])[],
): Promise<void> {
  if (!rows.length) return;
  const stream = client.query(copyFromStream()(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
  stream.end(copyText(rows));
  await finished(stream);
}
