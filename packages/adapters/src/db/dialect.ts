import type { Binding, SqlStatements } from './statements.js';

/** Rows bound to one statement (`Dialect.rows`): the SQL that stands for them and the values it binds. */
export interface RowSet {
  readonly sql: string;
  readonly bindings: readonly Binding[];
}

/** A column type of `Dialect.rows` other than text. */
export type RowType = 'integer' | 'boolean';

/**
 * What `Dialect.claimWithSkipLocked` claims: the first `limit` rows of `table` (primary key `id`) that are `due`,
 * in the order of `orderBy`, each changed by `set` (a lease), and what is answered about them: `SELECT <select> FROM
 * <the claimed rows, aliased d> <joins>`. `due` and `set` take their own bindings; `joins` takes none.
 */
export interface Claim {
  readonly table: string;
  readonly due: string;
  readonly dueBindings: readonly Binding[];
  readonly orderBy: string;
  readonly limit: number;
  readonly set: string;
  readonly setBindings: readonly Binding[];
  readonly select: string;
  readonly joins: string;
}

/**
 * What `Dialect.takeWithSkipLocked` takes off a queue table: its first `limit` rows by `key`, deleted, and what is
 * answered about them: `read(taken)`, a statement whose condition `taken(column)` holds for the taken keys. The
 * statement's own placeholders (`readBindings`) all come before that condition.
 */
export interface Take {
  readonly queue: string;
  readonly key: string;
  readonly limit: number;
  readonly read: (taken: (column: string) => string) => string;
  readonly readBindings: readonly Binding[];
}

/**
 * The SQLite/Postgres differences, as capabilities and statement builders: repositories ask the dialect what it
 * can do and have it write what differs, never ask which database it is (only `packages/adapters/src/db` reads
 * `name`).
 */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /** Case-insensitive LIKE. */
  readonly ilike: 'like' | 'ilike';
  /**
   * Whether a text found anywhere in an expression (`ilike '%text%'`) may be looked up in an index built on that
   * expression: Postgres' `pg_trgm` GIN indexes (where the migration could create the extension). SQLite has no
   * such index, so a condition written only for one would be one more test of every row.
   */
  readonly indexedContains: boolean;
  /**
   * Describes a unique-constraint violation (Postgres: the constraint name; SQLite: the message naming the
   * columns), or `null` when `err` is something else. Repositories search it for a column name.
   */
  uniqueViolation(err: unknown): string | null;
  /** Row-lock clause for claiming work: `FOR UPDATE SKIP LOCKED` on Postgres, nothing on SQLite (one writer). */
  readonly skipLocked: string;
  /**
   * Whether INSERT/UPDATE ... RETURNING may be a CTE of another statement (Postgres), so writing two tables (a
   * webhook attempt and its delivery's new state) takes one statement; without it (SQLite) it takes two in one
   * transaction.
   */
  readonly writableCte: boolean;
  /**
   * A statement that takes the lock named by its one parameter until the transaction ends, for work that must not
   * run in two transactions at once (Postgres: an advisory transaction lock); null where transactions already run
   * one at a time (SQLite's one writer).
   */
  readonly transactionLock: string | null;
  /**
   * Whether a trigger may be deferred to its transaction's commit (Postgres' deferrable constraint triggers): there
   * the platform's migration `audit-chain-at-commit` chains each audit entry at its commit, and the audit log writes
   * entries without their place in the chain; elsewhere (SQLite) the audit log chains them itself.
   */
  readonly deferredTriggers: boolean;
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
  /**
   * `IN (...)` over `values`, compared as text, for a list whose length varies from call to call. Postgres: one JSON
   * parameter (`jsonb_array_elements_text`), so the statement text, prepared once, is the same whatever the length;
   * SQLite: a placeholder per value (an empty list matches nothing).
   */
  inTexts(values: readonly string[]): RowSet;
  /**
   * `column` (an expression compared as text) among `values`, for a list whose length varies from call to call.
   * Postgres: `= ANY(ARRAY(...))` of one JSON parameter, so the values are one array the index is searched with
   * (with statistics, the (tenant, column) unique index answers 1,000 values in a few milliseconds; without them
   * the planner may walk the tenant's rows once through another index, docs/architecture.md "Planner statistics",
   * where `inTexts`' semi-join walked them once per value); SQLite: `IN (...)`, a placeholder per value.
   */
  amongTexts(column: string, values: readonly string[]): RowSet;
  /**
   * `rows` (values in the order of `columns`; `types` names the columns that are not text) as the rows of one
   * statement: after `INSERT INTO t (<columns>)`, or as the body of `WITH v(<columns>) AS (...)`. Postgres: one JSON
   * parameter read by `json_to_recordset`, one short statement text whatever the number of rows, parsed once and
   * cheap to plan (a VALUES list of 64 x 18 parameters took longer to plan, each length a statement of its own,
   * than to run; an array per column, `unnest`, cost the client twice the CPU of the JSON for 1,000 notifications);
   * a column whose value is the same string, number, boolean or null in every row (a bulk send's tenant, template,
   * status and times) is one parameter of its own instead, not repeated in each row's JSON. SQLite: a VALUES list.
   * At most `rowsPerStatement(columns.length)` rows.
   */
  rows(
    columns: readonly string[],
    rows: readonly (readonly Binding[])[],
    types?: Readonly<Record<string, RowType>>,
  ): RowSet;
  /**
   * The most rows of `width` values one `rows(...)` holds. Postgres: 5,000 (one parameter however many); SQLite: as
   * many as make about 9,000 bound values, well under its limit of 32,766.
   */
  rowsPerStatement(width: number): number;
  /**
   * Joins `alias`, the row of `table` whose `key` equals `equals` (an expression of the rows joined to), reading
   * its `columns`, each found by the key's index whatever the statistics. Postgres: a LATERAL subquery with
   * `OFFSET 0`, which the planner cannot flatten: with stale statistics (a young, fast-growing table) it would
   * otherwise hash-join against a scan of the whole table; SQLite: a plain join, which probes the key.
   */
  joinByKey(j: { table: string; alias: string; columns: readonly string[]; key: string; equals: string }): string;
  /**
   * Claims rows (`Claim`) so that workers claiming at once never take the same row, and answers the selected
   * columns of the claimed rows (in no particular order). Postgres: one statement, autocommit, planned per call (a
   * prepared statement's generic plan, made once while the table was small, would be kept as it grows). It first
   * takes the addresses of the first `2 x limit` due rows without locking (a bounded top-N sort of narrow rows,
   * however the planner reaches them), then locks `limit` among those (SKIP LOCKED): with the lock in the same query
   * the sort ordered every due row, whole, on each claim (the planner, without statistics, expects a handful of due
   * rows and reads them all); twice the claim lets a claim running beside this one take from the same front without
   * starving it. Both steps reach rows by their physical address (`ctid = ANY(array)`, a TID scan), never by a
   * search whatever the statistics: `UPDATE ... FROM picked` was planned, on a young table never analyzed, as a
   * hash join over a scan of the whole table, and `id = ANY(array)` costs an index descent per id (about 1.5 ms of
   * a 2 ms claim of 128 webhook deliveries). A row another worker changed between the two steps has a new address,
   * so the lock step skips it. SQLite (one writer): `UPDATE ... WHERE id IN (first due ids) RETURNING id`, then the
   * answer by id, in one transaction.
   */
  claimWithSkipLocked<T>(db: SqlStatements, claim: Claim): Promise<T[]>;
  /**
   * A writing statement that answers rows (`... RETURNING`), on `db` as it is: inside a transaction it joins it;
   * outside one it runs alone. Postgres: as it is, one statement committing by itself (one round trip, where a
   * transaction of its own costs three: BEGIN, the statement, COMMIT). SQLite, whose statements outside a
   * transaction read on the read-only connection: in a transaction of its own on the writer.
   */
  allWritten<T>(db: SqlStatements, sql: string, bindings: readonly Binding[]): Promise<T[]>;
  /**
   * Takes rows off a queue (`Take`) so that workers taking at once never take the same row, and answers what
   * `read` selects. Postgres: one statement, planned per call, so no plan made while the queue was small is kept
   * as it grows: the first rows are locked (SKIP LOCKED) and deleted by their physical address (`ctid`, a TID scan),
   * not looked up again by key (each key of an `= ANY(array)` list is an index descent of its own, which for 2,000
   * outbox events took longer than the rest of the statement), and `taken(column)` is `column = ANY(ARRAY(the
   * deleted keys))`. SQLite (one writer, one worker): the first keys, the answer (`column IN (...)`), then the delete.
   */
  takeWithSkipLocked<T>(db: SqlStatements, take: Take): Promise<T[]>;
  /** A query of the current schema's tables, each as `name`. */
  readonly tablesQuery: string;
  /**
   * A query of the indexes of the current schema's table named by its one parameter, each as `name` and its
   * definition `sql` (null for the indexes SQLite makes for its own constraints).
   */
  readonly indexesQuery: string;
}
