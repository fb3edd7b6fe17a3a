import type { Dialect } from './dialect.js';
import type { Binding, SqlStatements } from './statements.js';

export type { Binding, RunResult, SqlStatements } from './statements.js';

export type { Claim, Dialect, RowSet, RowType, Take } from './dialect.js';

/**
 * Prefix of a statement Postgres must plan for each call, with its values, instead of preparing it once: a long
 * `IN (...)` list over a table that grows while it runs (bulk imports), whose generic plan, made while the table
 * was small, scans the whole table. SQLite ignores it (a comment).
 */
export const PLAN_PER_CALL = '/* plan per call */ ';

/**
 * The small SQL surface every knex repository runs on. SQL uses `?` placeholders on both databases. Outside a
 * transaction, reads see committed data only; `transaction` gives a handle whose statements share one
 * transaction, committed when `work` resolves and rolled back when it throws.
 */
export interface SqlDb extends SqlStatements {
  readonly dialect: Dialect;
  /**
   * `all`'s rows as the drivers read them, arrays of the values in the statement's column order, with no object
   * made per row: for a repository that reads wide rows straight into its own objects (`RowReader`, paging.ts;
   * docs/performance.md, "Writes and lists on Postgres").
   */
  allArrays(sql: string, bindings?: readonly Binding[]): Promise<unknown[][]>;
  transaction<T>(work: (tx: SqlDb) => Promise<T>): Promise<T>;
  /**
   * Loads `rows` (values in the order of `columns`) into `table` as one bulk load, in the handle's transaction when
   * it has one, where the database has a load cheaper than an INSERT of the same rows: Postgres' `COPY ... FROM
   * STDIN` (docs/performance.md, "Imports on Postgres"). Absent on SQLite, whose bulk inserts are VALUES lists.
   * A unique violation fails the whole load as it would fail an INSERT, with the same error. `rows` is read once,
   * in order, before the promise settles; a row may be one array the iterable fills again for the next row.
   */
  copyRows?(table: string, columns: readonly string[], rows: Iterable<readonly Binding[]>): Promise<void>;
  /**
   * Makes rows deleted or overwritten so far unrecoverable from the database's own files, as far as the engine
   * allows (after a POPIA erasure; docs/architecture.md, "Erasure on disk"). Not inside a transaction.
   */
  scrub(tables: readonly string[]): Promise<void>;
  /**
   * Where reads outside transactions share a snapshot (SQLite's reader, `ReadSnapshot`): a number naming the one
   * open just now, or undefined when none is. Reads under the same number see the same data, so a value read under
   * it may be kept for it. Absent where each read is on its own (Postgres).
   */
  readSnapshot?(): number | undefined;
  close(): Promise<void>;
}
