import { objectMaker } from './sql-helpers.js';
import type { Claim, Dialect, RowSet, Take } from './dialect.js';
import { PLAN_PER_CALL } from './sql-db.js';
import type { Binding, SqlStatements } from './statements.js';

const objectMakers = new Map<string, (values: readonly unknown[]) => Record<string, unknown>>();
/** The rows as one JSON array of objects keyed by the columns of `at` (their places in each row), made as `objectMaker`. */
function asJson(columns: readonly string[], at: readonly number[], rows: readonly (readonly Binding[])[]): string {
  const key = `${columns.join(',')}|${at.join(',')}`;
  let make = objectMakers.get(key);
  if (!make)
    objectMakers.set(
      key,
      (make = objectMaker(
        at.map((i) => columns[i]!),
        at,
      )),
    );
  return JSON.stringify(rows.map(make));
}

/** A value that a parameter cast to its column's type reads as `json_to_recordset` would read it from the JSON. */
const plain = (v: Binding) =>
  v === null || v === undefined || typeof v === 'string' || typeof v === 'boolean' || Number.isFinite(v);

/**
 * The places of the columns whose value is the same plain value in every row (`rows.length` > 1): sent once as a
 * parameter, not once per row in the JSON. None when every column is the same (the JSON still gives the rows).
 */
function sameInEvery(rows: readonly (readonly Binding[])[], width: number): number[] {
  const same: number[] = [];
  if (rows.length < 2) return same;
  const first = rows[0]!;
  for (let i = 0; i < width; i++) {
    const v = first[i];
    if (!plain(v ?? null)) continue;
    let all = true;
    for (let r = 1; r < rows.length && all; r++) all = rows[r]![i] === v;
    if (all) same.push(i);
  }
  return same.length === width ? [] : same;
}

/** The one statement of `claimWithSkipLocked` (`Dialect` says why each step is as it is). */
const claimStatement = (c: Claim) => `${PLAN_PER_CALL}WITH picked AS (SELECT ctid FROM ${c.table}
    WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${c.table} WHERE ${c.due} ORDER BY ${c.orderBy} LIMIT ?))
    AND ${c.due} ORDER BY ${c.orderBy} LIMIT ? FOR UPDATE SKIP LOCKED),
  leased AS (UPDATE ${c.table} w SET ${c.set} WHERE w.ctid = ANY(ARRAY(SELECT ctid FROM picked)) RETURNING w.*)
  SELECT ${c.select} FROM leased d ${c.joins}`;

/** The one statement of `takeWithSkipLocked`. */
const takeStatement = (
  t: Take,
) => `${PLAN_PER_CALL}WITH picked AS (SELECT ctid FROM ${t.queue} ORDER BY ${t.key} LIMIT ? FOR UPDATE SKIP LOCKED),
  taken AS (DELETE FROM ${t.queue} WHERE ctid = ANY(ARRAY(SELECT ctid FROM picked)) RETURNING ${t.key})
  ${t.read((column) => `${column} = ANY(ARRAY(SELECT ${t.key} FROM taken))`)}`;

/** Postgres: the capabilities and statement forms `Dialect` describes. */
export const postgresDialect: Dialect = {
  name: 'postgres',
  ilike: 'ilike',
  indexedContains: true,
  skipLocked: 'FOR UPDATE SKIP LOCKED',
  writableCte: true,
  transactionLock: 'SELECT pg_advisory_xact_lock(hashtextextended(?, 0))',
  deferredTriggers: true,
  flag: (b) => b,
  amongPicked: (column, pick) => `${column} = ANY(ARRAY(${pick}))`,
  runsOnCallerThread: false,
  uniqueViolation(err) {
    const e = err as { code?: string; constraint?: string };
    return e?.code === '23505' ? (e.constraint ?? '') : null;
  },
  inTexts: (values) => ({ sql: 'IN (SELECT jsonb_array_elements_text(?::jsonb))', bindings: [JSON.stringify(values)] }),
  amongTexts: (column, values) => ({
    sql: `${column} = ANY(ARRAY(SELECT jsonb_array_elements_text(?::jsonb)))`,
    bindings: [JSON.stringify(values)],
  }),
  rows(columns, rows, types = {}): RowSet {
    const type = (c: string) => types[c] ?? 'text';
    const same = sameInEvery(rows, columns.length);
    const varying = columns.flatMap((_, i) => (same.includes(i) ? [] : [i]));
    const shape = varying.map((i) => `${columns[i]} ${type(columns[i]!)}`).join(', ');
    const json = asJson(columns, varying, rows);
    if (same.length === 0)
      return { sql: `SELECT * FROM json_to_recordset(CAST(? AS json)) AS r(${shape})`, bindings: [json] };
    // The columns the same in every row (a bulk send's tenant, template, status, times) are one parameter each.
    const select = columns.map((c, i) => (same.includes(i) ? `CAST(? AS ${type(c)}) AS ${c}` : `r.${c}`));
    return {
      sql: `SELECT ${select.join(', ')} FROM json_to_recordset(CAST(? AS json)) AS r(${shape})`,
      bindings: [...same.map((i) => rows[0]![i] ?? null), json],
    };
  },
  rowsPerStatement: () => 5000,
  joinByKey: (j) =>
    `JOIN LATERAL (SELECT ${j.columns.join(', ')} FROM ${j.table} WHERE ${j.key} = ${j.equals} OFFSET 0) ${j.alias} ON true`,
  claimWithSkipLocked<T>(db: SqlStatements, c: Claim): Promise<T[]> {
    return db.all<T>(claimStatement(c), [...c.dueBindings, 2 * c.limit, ...c.dueBindings, c.limit, ...c.setBindings]);
  },
  allWritten<T>(db: SqlStatements, sql: string, bindings: readonly Binding[]): Promise<T[]> {
    return db.all<T>(sql, bindings);
  },
  takeWithSkipLocked<T>(db: SqlStatements, t: Take): Promise<T[]> {
    return db.all<T>(takeStatement(t), [t.limit, ...t.readBindings]);
  },
  tablesQuery: 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()',
  indexesQuery:
    'SELECT indexname AS name, indexdef AS sql FROM pg_indexes WHERE tablename = ? AND schemaname = current_schema()',
};
