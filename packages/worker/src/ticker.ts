/**
 * Runs `tick` again and again: at once while it reports more work, otherwise after `pollMs` or as soon as
 * someone calls `nudge` (the same process committed an event). Errors are reported and the loop goes on:
 * the database or a receiver being down must never stop the worker.
 */
export class Ticker {
  private wake: (() => void) | null = null;
  /** A nudge that came while `tick` ran: the next sleep is skipped, so the signal is never lost. */
  private nudged = false;
  private stopped = false;

  constructor(
    private readonly tick: () => Promise<boolean>,
    private readonly pollMs: number,
    private readonly onError: (e: unknown) => void,
  ) {}

  async run(active: () => boolean): Promise<void> {
    while (!this.stopped) {
      let more = false;
      if (active()) {
        try {
          more = await this.tick();
        } catch (e) {
          this.onError(e);
        }
      }
      if (!more && !this.stopped && !this.nudged) await this.sleep();
      this.nudged = false;
    }
  }

  nudge(): void {
    if (this.wake) this.wake();
    else this.nudged = true;
  }

  stop(): void {
    this.stopped = true;
    this.nudge();
  }

  private sleep(): Promise<void> {
    return new Promise((ok) => {
      const timer = setTimeout(done, this.pollMs);
      const self = this;
      function done() {
        clearTimeout(timer);
        self.wake = null;
        ok();
      }
      this.wake = done;
    });
  }
}
