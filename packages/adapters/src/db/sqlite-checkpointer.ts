import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/** Beyond this size the WAL is copied into the database file (SQLite's own default: 1,000 pages of 4 KB). */
const WAL_CHECKPOINT_BYTES = 4 * 1024 * 1024;
/** A WAL that starts over is cut back to this size. */
const RESTARTED_WAL_BYTES = 1024 * 1024;
/** The writer checkpoints by itself only past this many pages: a backstop if the thread falls behind or is gone. */
const BACKSTOP_PAGES = 16_000;
/** SQLite's default, restored when the thread cannot run. */
const DEFAULT_PAGES = 1_000;
/** The WAL's size is looked at most this often (one `stat` each). */
const CHECK_EVERY_MS = 20;

// The thread's code, in its own isolate with a connection of its own; `driver` is the path of the better-sqlite3 the
// main thread uses. Only import() reaches the modules: it works whether the code runs as CommonJS (the default) or as
// a module (a process started with --input-type=module passes that flag on to its threads).
const THREAD = `
Promise.all([import('node:worker_threads'), import('node:module')]).then(([{ parentPort, workerData }, { createRequire }]) => {
  const Database = createRequire(workerData.driver)(workerData.driver);
  const db = new Database(workerData.filename);
  parentPort.on('message', () => {
    let row;
    try {
      // Again while the writer keeps adding frames, so the checkpoint catches up at the writer's next pause; then
      // the writer's next transaction starts the WAL over from its beginning.
      for (let i = 0; i < 20; i++) {
        row = db.pragma('wal_checkpoint(PASSIVE)')[0];
        if (row.busy || row.log === row.checkpointed) break;
      }
    } catch (e) { row = { error: String(e && e.message || e) }; }
    parentPort.postMessage(row);
  });
});
`;

/**
 * Copies the WAL into the database file on a thread of its own (docs/architecture.md, "SQLite checkpoints"). SQLite's
 * automatic checkpoint runs inside the COMMIT that crosses 1,000 pages, on the writer's thread: it reads the WAL back,
 * writes each page into the database file and syncs both, and a bulk import spent about a fifth of its time there.
 * Here the writer's commits only append to the WAL; after a commit that leaves the WAL beyond 4 MB, a PASSIVE
 * checkpoint runs on a second connection in a worker thread, which never blocks the writer or the readers, on the
 * machine's other core. The writer keeps an automatic checkpoint at 16,000 pages as a backstop, and goes back to
 * SQLite's default if the thread cannot start or dies. The thread starts only once a WAL first grows past the
 * threshold, so a small database (most tests) never has one.
 */
export class WalCheckpointer {
  private thread: Worker | null = null;
  private broken = false;
  private busy = false;
  private lastCheck = 0;
  private closed = false;
  /** A commit came while a checkpoint ran: look again once it is done. */
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  /** Checkpoints the thread has finished (for tests and diagnostics). */
  completed = 0;

  constructor(
    private readonly writer: Database.Database,
    private readonly filename: string,
  ) {
    this.writer.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    // A WAL started over is cut back to 1 MB, below the threshold, so its size tells how much has been written since
    // (cut back to the threshold itself, it would look full after every restart).
    this.writer.pragma(`journal_size_limit = ${RESTARTED_WAL_BYTES}`);
  }

  /**
   * After each COMMIT of the writer: starts a checkpoint when the WAL has grown past the threshold. A commit that
   * comes too soon after the last look, or while a checkpoint runs, leaves a look for later, so the last commits of a
   * burst are looked at too.
   */
  readonly afterCommit = (): void => {
    if (this.broken || this.closed) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    const wait = CHECK_EVERY_MS - (performance.now() - this.lastCheck);
    if (wait > 0) this.lookLater(wait);
    else this.look();
  };

  private lookLater(ms: number): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.afterCommit();
    }, ms);
    this.timer.unref();
  }

  private look(): void {
    this.lastCheck = performance.now();
    let size = 0;
    try {
      size = statSync(`${this.filename}-wal`).size;
    } catch {
      return;
    }
    if (size < WAL_CHECKPOINT_BYTES) return;
    const thread = this.thread ?? this.start();
    if (!thread) return;
    this.busy = true;
    thread.postMessage('checkpoint');
  }

  private start(): Worker | null {
    try {
      const driver = createRequire(import.meta.url).resolve('better-sqlite3');
      const t = new Worker(THREAD, { eval: true, workerData: { driver, filename: this.filename } });
      t.on('message', (row: { error?: string }) => {
        this.busy = false;
        if (row?.error) return this.fallBack();
        this.completed++;
        if (this.again) {
          this.again = false;
          this.lookLater(CHECK_EVERY_MS);
        }
      });
      t.on('error', () => this.fallBack());
      t.on('exit', () => {
        if (!this.closed) this.fallBack();
      });
      // Only after the listeners: a 'message' listener added to an unref()ed thread refs its port again, and the
      // thread would then keep the process alive.
      t.unref();
      this.thread = t;
      return t;
    } catch {
      this.fallBack();
      return null;
    }
  }

  /** The thread cannot do it: the writer checkpoints by itself again, as SQLite does by default. */
  private fallBack(): void {
    if (this.broken) return;
    this.broken = true;
    this.busy = false;
    if (this.writer.open) this.writer.pragma(`wal_autocheckpoint = ${DEFAULT_PAGES}`);
    const t = this.thread;
    this.thread = null;
    if (t && !this.closed) void t.terminate();
  }

  /** Stops the thread; a checkpoint in progress ends first (a native call is not interrupted), then its connection closes. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const t = this.thread;
    this.thread = null;
    if (t) await t.terminate();
  }
}
