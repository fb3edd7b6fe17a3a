import Database from 'better-sqlite3';
import type { Binding, RunResult, SqlDb } from './sql-db.js';
import { sqliteDialect } from './sqlite-dialect.js';
import { WalCheckpointer } from './sqlite-checkpointer.js';
import { GroupCommitter } from './sqlite-group-commit.js';
import { Connection, StatementCache } from './sqlite-connection.js';
import { ReadSnapshot } from './sqlite-read-snapshot.js';
import { isSqliteUnavailable, storageError } from './storage-errors.js';

export { sqliteDialect };

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
  allArrays(sql: string, b?: readonly Binding[]): Promise<unknown[][]> {
    return this.readConn.allArrays(sql, b);
  }
  first<T>(sql: string, b?: readonly Binding[]): Promise<T | undefined> {
    return this.readConn.first<T>(sql, b);
  }
  readSnapshot(): number | undefined {
    return this.snapshot.current();
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
