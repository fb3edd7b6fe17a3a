import type Database from 'better-sqlite3';
import { DomainError } from '@fundi/domain';
import type { SqlDb } from './sql-db.js';
import { isSqliteUnavailable, storageError } from './storage-errors.js';

interface Pending {
  work: (tx: SqlDb) => Promise<unknown>;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/**
 * Group commit for the one SQLite writer. Transactions submitted in the same turn of the event loop run one
 * after another inside a single SQLite transaction, each in its own SAVEPOINT, and share one COMMIT: a failing
 * one is rolled back to its savepoint alone. Callers are answered only after the COMMIT, so nobody sees success
 * for work that is not durable; if BEGIN or the COMMIT fails, or SQLite rolls the whole transaction back after an
 * error (an I/O error, a full disk), every caller of the batch gets the error. It never throws past its callers.
 * Under load this turns many small commits (each writing its index pages to the WAL) into few large ones.
 */
export class GroupCommitter {
  private queue: Pending[] = [];
  private scheduled = false;
  private running: Promise<void> | null = null;
  private readonly sql: Record<
    'begin' | 'savepoint' | 'release' | 'rollbackTo' | 'commit' | 'rollback',
    Database.Statement
  >;

  /**
   * `beforeCommit` runs just before each COMMIT (the reader's snapshot ends there; see SqliteDb), `afterCommit` just
   * after a successful one (the WAL checkpointer looks at the WAL's size there). `lockWaitMs`: how long BEGIN waits
   * for the write lock while another connection holds it (another process writing, a backup).
   */
  constructor(
    private readonly db: Database.Database,
    private readonly conn: SqlDb,
    private readonly hooks: { beforeCommit?: () => void; afterCommit?: () => void; lockWaitMs?: number } = {},
    private readonly maxBatch = 200,
  ) {
    this.sql = {
      begin: db.prepare('BEGIN IMMEDIATE'),
      savepoint: db.prepare('SAVEPOINT unit'),
      release: db.prepare('RELEASE unit'),
      rollbackTo: db.prepare('ROLLBACK TO unit'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
    };
  }

  submit<T>(work: (tx: SqlDb) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (v: unknown) => void, reject });
      this.schedule();
    });
  }

  /** Resolves once everything submitted so far has been committed or refused. */
  async drain(): Promise<void> {
    while (this.running || this.scheduled || this.queue.length)
      await (this.running ?? new Promise((r) => setImmediate(r)));
  }

  private schedule(): void {
    if (this.scheduled || this.running) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.running = this.flush().finally(() => {
        this.running = null;
        if (this.queue.length) this.schedule();
      });
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue.splice(0, this.maxBatch);
    const outcomes: (() => void)[] = [];
    let committing = false;
    try {
      await this.begin();
      for (const p of batch) outcomes.push(await this.runOne(p));
      this.hooks.beforeCommit?.();
      committing = true;
      this.sql.commit.run();
    } catch (e) {
      // BEGIN or a savepoint failed (a lock held past the busy timeout, an I/O error, a full disk), or SQLite rolled
      // the whole transaction back after an error: nothing of the batch is committed, and every caller is told. An
      // I/O error in the COMMIT itself may come after the commit record reached the WAL (while the WAL's index is
      // updated): its outcome is unknown.
      this.rollback();
      const error = committing ? storageError(e, isSqliteUnavailable, true) : e;
      for (const p of batch) p.reject(error);
      return;
    }
    try {
      this.hooks.afterCommit?.();
    } catch {
      // Committed all the same; the hook is called again after the next COMMIT.
    }
    for (const settle of outcomes) settle();
  }

  /**
   * BEGIN IMMEDIATE, waiting for a write lock held by another connection between tries rather than in SQLite's busy
   * handler (the writer's busy timeout is 0), which would sleep on this thread and stop every request of the process
   * meanwhile. Past `lockWaitMs` it fails with SQLITE_BUSY.
   */
  private async begin(): Promise<void> {
    const deadline = performance.now() + (this.hooks.lockWaitMs ?? 5000);
    for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
      try {
        this.sql.begin.run();
        return;
      } catch (e) {
        if ((e as { code?: string }).code !== 'SQLITE_BUSY' || performance.now() >= deadline) throw e;
      }
      await new Promise((ok) => setTimeout(ok, wait));
    }
  }

  private async runOne(p: Pending): Promise<() => void> {
    this.sql.savepoint.run();
    let outcome: () => void;
    try {
      const result = await p.work(this.conn);
      outcome = () => p.resolve(result);
    } catch (e) {
      // After an I/O error or a full disk SQLite may have rolled back the whole transaction: the batch fails with it.
      if (!this.db.inTransaction) throw e;
      this.sql.rollbackTo.run();
      outcome = () => p.reject(e);
    }
    // The work went on after an error with which SQLite had rolled the whole transaction back.
    if (!this.db.inTransaction) throw DomainError.storageUnavailable(new Error('SQLite rolled the transaction back'));
    this.sql.release.run();
    return outcome;
  }

  private rollback(): void {
    try {
      if (this.db.inTransaction) this.sql.rollback.run();
    } catch {
      // Nothing more to undo: SQLite ends a transaction it cannot roll back, and the next BEGIN starts afresh.
    }
  }
}
