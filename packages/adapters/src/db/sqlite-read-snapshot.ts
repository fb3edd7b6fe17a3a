import type Database from 'better-sqlite3';

/**
 * The reader's reads in one turn of the event loop share one read transaction, ended at the turn's end and just
 * before this process commits a write (so a caller reads what it has just written, and the writer's checkpoints
 * are never held back by this process's own reader). A read outside a transaction costs three system calls (the
 * shared lock on the database file taken and dropped, and a check that the file is still there), as much as
 * reading a wide row; a request reads two or three times (its key's auth epoch, then its data), and a busy server
 * answers several requests in one turn. Writes by other processes become visible at the next turn, a fraction of
 * a millisecond later, as if the reads had come a moment sooner.
 */
export class ReadSnapshot {
  private readonly begin: Database.Statement;
  private readonly commit: Database.Statement;
  /** Counts the read transactions begun: the number of the open one names it. */
  private begun = 0;
  constructor(private readonly db: Database.Database) {
    this.begin = db.prepare('BEGIN');
    this.commit = db.prepare('COMMIT');
  }
  enter(): void {
    if (this.db.inTransaction) return;
    this.begin.run();
    this.begun++;
    setImmediate(this.end);
  }
  /** The number of the open read transaction (reads under the same number see the same data), or undefined. */
  current(): number | undefined {
    return this.db.inTransaction ? this.begun : undefined;
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
