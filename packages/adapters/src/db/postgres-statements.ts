import { createRequire } from 'node:module';
import type pg from 'pg';
import { objectMaker } from './sql-helpers.js';
import { PLAN_PER_CALL, type Binding } from './sql-db.js';

// How one statement goes to node-postgres and how its rows come back: `?` placeholders numbered, statements named
// so each connection plans them once, rows read as arrays and made into objects of one shape per result. The pool,
// its clients and transactions are postgres-db.ts's.

const placeholderCache = new Map<string, string>();

/** `?` placeholders (as knex's `toSQL()` and our hand-written SQL use them) to Postgres `$n`. */
function numbered(sql: string): string {
  let out = placeholderCache.get(sql);
  if (out === undefined) {
    let n = 0;
    out = sql.replace(/\?/g, () => `$${++n}`);
    placeholderCache.set(sql, out);
  }
  return out;
}

let driver: typeof pg | null = null;
/** node-postgres, loaded on the first Postgres connection only (the embedded default never needs it). */
export function pgDriver(): typeof pg {
  if (!driver) {
    driver = createRequire(import.meta.url)('pg') as typeof pg;
    // Timestamps and dates are stored as ISO text; counts come back as bigint strings, which we read as numbers.
    driver.types.setTypeParser(20, (v) => Number(v));
  }
  return driver;
}

export type Queryable = Pick<pg.PoolClient, 'query'>;
export type RowMaker = (raw: unknown[]) => Record<string, unknown>;

const makers = new Map<string, RowMaker>();

/**
 * Rows come back as arrays and are built by a generated object literal per result shape: node-postgres' own
 * row objects for wide rows (learners have ~50 columns) cost more than the query's round trip in CPU.
 */
export function rowMaker(fields: readonly { name: string }[]): RowMaker {
  const key = fields.map((f) => f.name).join(',');
  let make = makers.get(key);
  if (!make) {
    make = objectMaker(fields.map((f) => f.name));
    makers.set(key, make);
  }
  return make;
}

const names = new Map<string, string>();
/** Distinct statement texts are few (list filters and IN-list lengths vary a little); past this, run unnamed. */
const MAX_NAMED = 2000;

/**
 * Statements are named, so each pooled connection parses and plans one only once. After a migration changes a
 * table under a running process, Postgres refuses the old plan (0A000); the query is then run unnamed.
 */
export async function exec(q: Queryable, sql: string, values: readonly Binding[]): Promise<pg.QueryResult> {
  let name = names.get(sql);
  if (!name && names.size < MAX_NAMED && !sql.startsWith(PLAN_PER_CALL)) names.set(sql, (name = `f${names.size + 1}`));
  const text = numbered(sql);
  if (!name) return q.query({ text, values: values as unknown[], rowMode: 'array' });
  try {
    return await q.query({ name, text, values: values as unknown[], rowMode: 'array' });
  } catch (e) {
    if ((e as { code?: string }).code !== '0A000') throw e;
    return q.query({ text, values: values as unknown[], rowMode: 'array' });
  }
}
