export type Binding = string | number | boolean | null | undefined;

export interface RunResult {
  changes: number;
}

/** The SQLite/Postgres differences the repositories must know about; everything else is the same SQL. */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /** Case-insensitive LIKE. */
  readonly ilike: 'like' | 'ilike';
  /**
   * Describes a unique-constraint violation (Postgres: the constraint name; SQLite: the message naming the
   * columns), or `null` when `err` is something else. Repositories search it for a column name.
   */
  uniqueViolation(err: unknown): string | null;
  /** Row-lock clause for claiming work: `FOR UPDATE SKIP LOCKED` on Postgres, nothing on SQLite (one writer). */
  readonly skipLocked: string;
  /**
   * Whether INSERT/UPDATE ... RETURNING may be a CTE of another statement (Postgres), so claiming and recording
   * work take one statement; without it (SQLite) they take two in one transaction.
   */
  readonly writableCte: boolean;
  /**
   * A statement that takes the lock named by its one parameter until the transaction ends, for work that must not
   * run in two transactions at once (Postgres: an advisory transaction lock); null where transactions already run
   * one at a time (SQLite's one writer).
   */
  readonly transactionLock: string | null;
  /** A true/false value as the database binds it: SQLite has no boolean type (1/0), Postgres takes it as it is. */
  readonly flag: (b: boolean) => boolean | number;
  /**
   * `column` among the rows a subquery picks (`SELECT id ... LIMIT n`), as a condition of an UPDATE or DELETE.
   * Postgres: `= ANY(ARRAY(...))`, a primary-key probe whatever the statistics (an `IN` semi-join may be planned as
   * a scan of the whole table while it is young); SQLite: `IN (...)`.
   */
  readonly amongPicked: (column: string, pick: string) => string;
  /**
   * Whether a statement runs on the calling thread, holding up everything else the process does meanwhile (SQLite,
   * synchronous), rather than in a server of its own while the caller's event loop goes on (Postgres).
   */
  readonly runsOnCallerThread: boolean;
}

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
export interface SqlDb {
  readonly dialect: Dialect;
  all<T = Record<string, unknown>>(sql: string, bindings?: readonly Binding[]): Promise<T[]>;
  first<T = Record<string, unknown>>(sql: string, bindings?: readonly Binding[]): Promise<T | undefined>;
  run(sql: string, bindings?: readonly Binding[]): Promise<RunResult>;
  transaction<T>(work: (tx: SqlDb) => Promise<T>): Promise<T>;
  /**
   * Makes rows deleted or overwritten so far unrecoverable from the database's own files, as far as the engine
   * allows (after a POPIA erasure; docs/architecture.md, "Erasure on disk"). Not inside a transaction.
   */
  scrub(tables: readonly string[]): Promise<void>;
  close(): Promise<void>;
}
