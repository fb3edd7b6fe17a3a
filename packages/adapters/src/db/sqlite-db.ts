import { objectMaker } from './sql-helpers.js';
import Database from 'better-sqlite3';
import { DomainError } from '@fundi/domain';
import type { Binding, RunResult, SqlDb } from './sql-db.js';
import { sqliteDialect } from './sqlite-dialect.js';
import { WalCheckpointer } from './sqlite-checkpointer.js';
import { GroupCommitter } from './sqlite-group-commit.js';
import { isSqliteUnavailable, storageError } from './storage-errors.js';

type Statement = Database.Statement<unknown[], Record<string, unknown>>;

export { sqliteDialect };

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
class StatementCache {
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
 * The reader's reads in one turn of the event loop share one read transaction, ended at the turn's end and just
 * before this process commits a write (so a caller reads what it has just written, and the writer's checkpoints
 * are never held back by this process's own reader). A read outside a transaction costs three system calls (the
 * shared lock on the database file taken and dropped, and a check that the file is still there), as much as
 * reading a wide row; a request reads two or three times (its key's auth epoch, then its data), and a busy server
 * answers several requests in one turn. Writes by other processes become visible at the next turn, a fraction of
 * a millisecond later, as if the reads had come a moment sooner.
 */
class ReadSnapshot {
  private readonly begin: Database.Statement;
  private readonly commit: Database.Statement;
  constructor(private readonly db: Database.Database) {
    this.begin = db.prepare('BEGIN');
    this.commit = db.prepare('COMMIT');
  }
  enter(): void {
    if (this.db.inTransaction) return;
    this.begin.run();
    setImmediate(this.end);
  }
  readonly end = (): void => {
    if (!this.db.open || !this.db.inTransaction) return;
    try {
      this.commit.run();
    } catch {
      // A read transaction has nothing to save; ending it is all that matters (it runs at a turn's end, where a
      // throw would end the process).
      try {
        this.db.exec('ROLLBACK');
      } catch {}
    }
  };
}

/**
 * Statements bound to one connection; used for the writer inside a transaction and for the reader. A database the
 * process cannot use just now (locked past the busy timeout, an I/O error, a full disk) fails the statement with
 * `DomainError.storageUnavailable`.
 */
class Connection implements SqlDb {
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

/**
 * better-sqlite3 in WAL mode with two connections: a writer, whose transactions run one at a time and commit
 * in groups (GroupCommitter), and a reader for everything outside transactions, which therefore never sees
 * uncommitted writes. Statements are prepared once and cached, which keeps reads cheap for the embedded default.
 */
export class SqliteDb implements SqlDb {
  readonly dialect = sqliteDialect;
  private readonly writer: Database.Database;
  private readonly reader: Database.Database;
  private readonly readConn: Connection;
  private readonly writeConn: Connection;
  private readonly committer: GroupCommitter;
  private readonly snapshot: ReadSnapshot;
  private readonly checkpointer: WalCheckpointer;

  /**
   * `busyTimeoutMs`: how long a transaction waits for the write lock, and a read for a lock, that another connection
   * holds (another process writing, a backup) before it fails with `storage_unavailable` (default 5 s). The writer
   * waits without blocking the thread (see GroupCommitter); readers in WAL mode almost never wait.
   */
  constructor(
    readonly filename: string,
    opts: { busyTimeoutMs?: number } = {},
  ) {
    const busyTimeout = opts.busyTimeoutMs ?? 5000;
    this.writer = new Database(filename);
    this.writer.pragma('journal_mode = WAL');
    this.writer.pragma('synchronous = NORMAL');
    this.writer.pragma('busy_timeout = 0');
    this.writer.pragma('foreign_keys = ON');
    // Deleted and overwritten content is zeroed in the database file, so an erased learner's data does not
    // linger in free pages (docs/architecture.md, "Erasure on disk").
    this.writer.pragma('secure_delete = ON');
    this.reader = new Database(filename);
    this.reader.pragma(`busy_timeout = ${busyTimeout}`);
    this.reader.pragma('query_only = ON');
    this.snapshot = new ReadSnapshot(this.reader);
    this.readConn = new Connection(new StatementCache(this.reader), this.snapshot);
    this.writeConn = new Connection(new StatementCache(this.writer), undefined, this.writer);
    this.checkpointer = new WalCheckpointer(this.writer, filename);
    this.committer = new GroupCommitter(this.writer, this.writeConn, {
      beforeCommit: this.snapshot.end,
      afterCommit: this.checkpointer.afterCommit,
      lockWaitMs: busyTimeout,
    });
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

  /**
   * Never call the outer `SqliteDb` (only the `tx` handle) inside `work`: the outer one would wait for the
   * batch that is running `work`.
   */
  async transaction<T>(work: (tx: SqlDb) => Promise<T>): Promise<T> {
    try {
      return await this.committer.submit(work);
    } catch (e) {
      // BEGIN (the write lock held elsewhere past the busy timeout) or COMMIT (an I/O error, a full disk) failed.
      throw storageError(e, isSqliteUnavailable);
    }
  }

  /**
   * Copies the WAL into the database file (where secure_delete has zeroed what was deleted) and truncates the
   * WAL to nothing, so old versions of rows survive in neither file. A reader holding an old snapshot makes the
   * checkpoint busy: it is retried until the readers have moved on.
   */
  async scrub(): Promise<void> {
    await this.committer.drain();
    for (let i = 0; i < 200; i++) {
      this.snapshot.end();
      let r: { busy: number } | undefined;
      try {
        [r] = this.writer.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      } catch (e) {
        throw storageError(e, isSqliteUnavailable);
      }
      if (!r || r.busy === 0) return;
      await new Promise((ok) => setTimeout(ok, 25));
    }
    throw new Error('the WAL could not be checkpointed: a reader kept an old snapshot for 5 s');
  }

  /** Checkpoints run on the background thread so far (tests). */
  get backgroundCheckpoints(): number {
    return this.checkpointer.completed;
  }

  async close(): Promise<void> {
    await this.committer.drain();
    // The thread's connection first, so the writer's close is the last one's: SQLite then checkpoints and removes
    // the WAL.
    await this.checkpointer.close();
    this.snapshot.end();
    this.reader.close();
    this.writer.close();
  }
}
