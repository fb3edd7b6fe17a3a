import { marks, valuesList } from './sql-helpers.js';
import type { Claim, Dialect, Take } from './dialect.js';
import type { Binding, SqlStatements } from './statements.js';

/** Bound values per statement that `rows` aims at, well under SQLite's limit of 32,766. */
const VALUES_PER_STATEMENT = 9000;

/** SQLite: the capabilities and statement forms `Dialect` describes. */
export const sqliteDialect: Dialect = {
  name: 'sqlite',
  ilike: 'like', // SQLite's LIKE is case-insensitive for ASCII already.
  indexedContains: false,
  skipLocked: '',
  writableCte: false,
  transactionLock: null,
  deferredTriggers: false,
  flag: (b) => (b ? 1 : 0),
  amongPicked: (column, pick) => `${column} IN (${pick})`,
  runsOnCallerThread: true,
  uniqueViolation(err) {
    const e = err as { code?: string; message?: string };
    return e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
      ? (e.message ?? '')
      : null;
  },
  inTexts: (values) => ({ sql: `IN (${marks(values.length)})`, bindings: values }),
  amongTexts: (column, values) => ({ sql: `${column} IN (${marks(values.length)})`, bindings: values }),
  rows: (columns, rows) => ({ sql: `VALUES ${valuesList(rows.length, columns.length)}`, bindings: rows.flat() }),
  rowsPerStatement: (width) => Math.max(1, Math.floor(VALUES_PER_STATEMENT / width)),
  joinByKey: (j) => `JOIN ${j.table} ${j.alias} ON ${j.alias}.${j.key} = ${j.equals}`,
  claimWithSkipLocked<T>(db: SqlStatements, c: Claim): Promise<T[]> {
    const lease = `UPDATE ${c.table} SET ${c.set}
      WHERE id IN (SELECT id FROM ${c.table} WHERE ${c.due} ORDER BY ${c.orderBy} LIMIT ?) RETURNING id`;
    return db.transaction(async (tx) => {
      const ids = (await tx.all<{ id: string }>(lease, [...c.setBindings, ...c.dueBindings, c.limit])).map((r) => r.id);
      if (ids.length === 0) return [];
      return tx.all<T>(`SELECT ${c.select} FROM ${c.table} d ${c.joins} WHERE d.id IN (${marks(ids.length)})`, ids);
    });
  },
  allWritten<T>(db: SqlStatements, sql: string, bindings: readonly Binding[]): Promise<T[]> {
    return db.transaction((tx) => tx.all<T>(sql, bindings));
  },
  async takeWithSkipLocked<T>(db: SqlStatements, t: Take): Promise<T[]> {
    const keys = (
      await db.all<Record<string, Binding>>(`SELECT ${t.key} FROM ${t.queue} ORDER BY ${t.key} LIMIT ?`, [t.limit])
    ).map((r) => r[t.key]);
    if (keys.length === 0) return [];
    const list = marks(keys.length);
    const rows = await db.all<T>(
      t.read((column) => `${column} IN (${list})`),
      [...t.readBindings, ...keys],
    );
    await db.run(`DELETE FROM ${t.queue} WHERE ${t.key} IN (${list})`, keys);
    return rows;
  },
  tablesQuery: "SELECT name FROM sqlite_master WHERE type = 'table'",
  indexesQuery: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ?",
};
