/**
 * The interactive jobs this worker runs (an import someone waits for), so background jobs (notifications) wait for
 * them: `holdsBackground` is true while one runs, until `maxHoldMs` of uninterrupted interactive work has passed,
 * after which background jobs run beside it as before. When the last interactive job ends, `onClear` wakes the
 * lanes so the background jobs that waited start at once. Wall time (`now`), not the job clock: a fixed clock in
 * tests must not hold background jobs for ever.
 */
export class InteractiveWork {
  private running = 0;
  private since = 0;

  constructor(
    private readonly maxHoldMs: number,
    private readonly onClear: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  enter(): void {
    if (this.running++ === 0) this.since = this.now();
  }

  leave(): void {
    if (--this.running === 0) this.onClear();
  }

  get holdsBackground(): boolean {
    return this.running > 0 && this.now() - this.since < this.maxHoldMs;
  }
}
