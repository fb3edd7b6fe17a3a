/**
 * Work done one piece after another, in the order it is handed over, while the caller reads on: an import checks or
 * writes one batch while the next is read from the file.
 */
export class InOrder {
  private last: Promise<void> = Promise.resolve();

  /**
   * Queues `work` after what was handed over before, and answers the earlier work's promise: awaiting it keeps at
   * most two pieces in memory. A failure surfaces there, or at `settled()`, never as an unhandled rejection.
   */
  queue(work: () => Promise<void>): Promise<void> {
    const before = this.last;
    this.last = before.then(work);
    this.last.catch(() => {});
    return before;
  }

  /** When everything handed over has ended; rejects with the first failure. */
  settled(): Promise<void> {
    return this.last;
  }
}
