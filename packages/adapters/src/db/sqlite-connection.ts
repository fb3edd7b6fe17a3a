import type Database from 'better-sqlite3';
import { DomainError } from '@fundi/domain';
import type { Binding, RunResult, SqlDb } from './sql-db.js';
import { objectMaker } from './sql-helpers.js';
import { sqliteDialect } from './sqlite-dialect.js';
import type { ReadSnapshot } from './sqlite-read-snapshot.js';
import { isSqliteUnavailable, storageError } from './storage-errors.js';

type Statement = Database.Statement<unknown[], Record<string, unknown>>;

/** The values as SQLite takes them (null, 1/0); the same array when it holds nothing to convert (a bulk insert's). */
function bind(values: readonly Binding[]): readonly unknown[] {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === undefined || typeof v === 'boolean')
      return values.map((v) => (v === undefined ? null : typeof v === 'boolean' ? sqliteDialect.flag(v) : v));
  }
  return values;
}

interface Prepared {
  stmt: Statement;
  /** Builds a row object of fixed shape from a raw row; null for statements that return no rows. */
  make: ((raw: unknown[]) => Record<string, unknown>) | null;
}

/**
 * Prepared statements, prepared once. Reading statements run in raw (array) mode and a generated function
 * builds each row as an object literal: better-sqlite3's own objects for wide rows (learners have ~50 columns)
 * are several times slower to create and to read.
 */
export class StatementCache {
  private readonly cache = new Map<string, Prepared>();
  constructor(private readonly db: Database.Database) {}
  get(sql: string): Prepared {
    let p = this.cache.get(sql);
    if (!p) {
      const stmt = this.db.prepare(sql) as Statement;
      p = { stmt, make: stmt.reader ? rowFactory(stmt) : null };
      if (p.make) stmt.raw(true);
      this.cache.set(sql, p);
    }
    return p;
  }
}

function rowFactory(stmt: Statement): (raw: unknown[]) => Record<string, unknown> {
  return objectMaker(stmt.columns().map((c) => c.name));
}

/**
 * Statements bound to one connection; used for the writer inside a transaction and for the reader. A database the
 * process cannot use just now (locked past the busy timeout, an I/O error, a full disk) fails the statement with
 * `DomainError.storageUnavailable`.
 */
export class Connection implements SqlDb {
  readonly dialect = sqliteDialect;
  constructor(
    private readonly stmts: StatementCache,
    private readonly snapshot?: ReadSnapshot,
    /** The writer, whose statements run only inside the group's transaction. */
    private readonly writer?: Database.Database,
  ) {}
  async all<T>(sql: string, b: readonly Binding[] = []): Promise<T[]> {
    try {
      this.enter();
      const { stmt, make } = this.stmts.get(sql);
      const rows = stmt.all(...bind(b)) as unknown[];
      return (make ? rows.map((r) => make(r as unknown[])) : rows) as T[];
    } catch (e) {
      throw storageError(e, isSqliteUnavailable);
    }
  }
  async allArrays(sql: string, b: readonly Binding[] = []): Promise<unknown[][]> {
    try {
      this.enter();
      // A reading statement is prepared in raw mode (`StatementCache`): its rows are arrays already.
      const rows: unknown[] = this.stmts.get(sql).stmt.all(...bind(b));
      return rows as unknown[][];
    } catch (e) {
      throw storageError(e, isSqliteUnavailable);
    }
  }
  async first<T>(sql: string, b: readonly Binding[] = []): Promise<T | undefined> {
    try {
      this.enter();
      const { stmt, make } = this.stmts.get(sql);
      const row = stmt.get(...bind(b)) as unknown[] | undefined;
      return (row && make ? make(row) : row) as T | undefined;
    } catch (e) {
      throw storageError(e, isSqliteUnavailable);
    }
  }
  async run(sql: string, b: readonly Binding[] = []): Promise<RunResult> {
    try {
      this.enter();
      const { stmt, make } = this.stmts.get(sql);
      // INSERT ... RETURNING is a reader: run it through `all` so the returned rows are consumed.
      if (make) return { changes: (stmt.all(...bind(b)) as unknown[]).length };
      return { changes: stmt.run(...bind(b)).changes };
    } catch (e) {
      throw storageError(e, isSqliteUnavailable);
    }
  }
  private enter(): void {
    this.snapshot?.enter();
    // After an I/O error or a full disk SQLite may have rolled the group's transaction back: a statement of the work
    // that goes on would run, and commit, on its own.
    if (this.writer && !this.writer.inTransaction)
      throw DomainError.storageUnavailable(new Error('SQLite rolled the transaction back'));
  }
  transaction<T>(work: (tx: SqlDb) => Promise<T>): Promise<T> {
    // Only the writer inside a transaction hands this out, so a nested transaction joins the open one.
    return work(this);
  }
  async scrub(): Promise<void> {
    throw new Error('scrub runs outside transactions');
  }
  async close(): Promise<void> {}
}
