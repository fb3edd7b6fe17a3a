import Database from 'better-sqlite3';
import type { Binding, Dialect, RunResult, SqlDb } from './sql-db.js';

type Statement = Database.Statement<unknown[], Record<string, unknown>>;

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  ilike: 'like', // SQLite's LIKE is case-insensitive for ASCII already.
  skipLocked: '',
  uniqueViolation(err) {
    const e = err as { code?: string; message?: string };
    return e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ? (e.message ?? '') : null;
  },
};

function bind(values: readonly Binding[]): unknown[] {
  return values.map((v) => (v === undefined ? null : typeof v === 'boolean' ? (v ? 1 : 0) : v));
}

class StatementCache {
  private readonly cache = new Map<string, Statement>();
  constructor(private readonly db: Database.Database) {}
  get(sql: string): Statement {
    let s = this.cache.get(sql);
    if (!s) {
      s = this.db.prepare(sql) as Statement;
      this.cache.set(sql, s);
    }
    return s;
  }
}

/** Serialises write transactions on the one writer connection (SQLite allows one writer at a time). */
class Mutex {
  private tail: Promise<void> = Promise.resolve();
  async lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const prev = this.tail;
    this.tail = prev.then(() => next);
    await prev;
    return release;
  }
}

/** Statements bound to one connection; used for the writer inside a transaction and for the reader. */
class Connection implements SqlDb {
  readonly dialect = sqliteDialect;
  constructor(private readonly stmts: StatementCache) {}
  async all<T>(sql: string, b: readonly Binding[] = []): Promise<T[]> {
    return this.stmts.get(sql).all(...bind(b)) as T[];
  }
  async first<T>(sql: string, b: readonly Binding[] = []): Promise<T | undefined> {
    return this.stmts.get(sql).get(...bind(b)) as T | undefined;
  }
  async run(sql: string, b: readonly Binding[] = []): Promise<RunResult> {
    return { changes: this.stmts.get(sql).run(...bind(b)).changes };
  }
  transaction<T>(work: (tx: SqlDb) => Promise<T>): Promise<T> {
    // Only the writer inside a transaction hands this out, so a nested transaction joins the open one.
    return work(this);
  }
  async close(): Promise<void> {}
}

/**
 * better-sqlite3 in WAL mode with two connections: a writer, used by one transaction at a time, and a reader
 * for everything outside transactions, which therefore never sees uncommitted writes. Statements are prepared
 * once and cached, which is what makes reads cheap enough for the embedded default.
 */
export class SqliteDb implements SqlDb {
  readonly dialect = sqliteDialect;
  private readonly writer: Database.Database;
  private readonly reader: Database.Database;
  private readonly readConn: Connection;
  private readonly writeConn: Connection;
  private readonly mutex = new Mutex();

  constructor(readonly filename: string) {
    this.writer = new Database(filename);
    this.writer.pragma('journal_mode = WAL');
    this.writer.pragma('synchronous = NORMAL');
    this.writer.pragma('busy_timeout = 5000');
    this.writer.pragma('foreign_keys = ON');
    this.reader = new Database(filename);
    this.reader.pragma('busy_timeout = 5000');
    this.reader.pragma('query_only = ON');
    this.readConn = new Connection(new StatementCache(this.reader));
    this.writeConn = new Connection(new StatementCache(this.writer));
  }

  all<T>(sql: string, b?: readonly Binding[]): Promise<T[]> {
    return this.readConn.all<T>(sql, b);
  }
  first<T>(sql: string, b?: readonly Binding[]): Promise<T | undefined> {
    return this.readConn.first<T>(sql, b);
  }
  run(sql: string, b?: readonly Binding[]): Promise<RunResult> {
    return this.transaction((tx) => tx.run(sql, b));
  }

  async transaction<T>(work: (tx: SqlDb) => Promise<T>): Promise<T> {
    const release = await this.mutex.lock();
    try {
      this.writer.exec('BEGIN IMMEDIATE');
      try {
        const result = await work(this.writeConn);
        this.writer.exec('COMMIT');
        return result;
      } catch (e) {
        if (this.writer.inTransaction) this.writer.exec('ROLLBACK');
        throw e;
      }
    } finally {
      release();
    }
  }

  async close(): Promise<void> {
    const release = await this.mutex.lock();
    this.reader.close();
    this.writer.close();
    release();
  }
}
