import { backoffAfter } from './storage-outage.js';

/**
 * Runs `tick` again and again: at once while it reports more work, otherwise after `pollMs` or as soon as
 * someone calls `nudge` (the same process committed an event). Errors are reported and the loop goes on: the
 * database or a receiver being down must never stop the worker. After failures in a row it waits longer each time
 * (the poll interval doubled per failure, up to `MAX_BACKOFF_MS`), so a database that is gone is not asked five times
 * a second by every loop; a nudge still wakes it at once, and the first success brings the poll interval back.
 */
export class Ticker {
  private wake: (() => void) | null = null;
  /** A nudge that came while `tick` ran: the next sleep is skipped, so the signal is never lost. */
  private nudged = false;
  private stopped = false;
  private failures = 0;

  constructor(
    private readonly tick: () => Promise<boolean>,
    private readonly pollMs: number,
    private readonly onError: (e: unknown) => void,
    private readonly onSuccess: () => void = () => {},
  ) {}

  async run(active: () => boolean): Promise<void> {
    while (!this.stopped) {
      let more = false;
      if (active()) {
        try {
          more = await this.tick();
          this.failures = 0;
          this.onSuccess();
        } catch (e) {
          this.failures++;
          this.onError(e);
        }
      }
      if (!more && !this.stopped && !this.nudged)
        await this.sleep(this.failures ? backoffAfter(this.failures, this.pollMs) : this.pollMs);
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

  private sleep(ms: number): Promise<void> {
    return new Promise((ok) => {
      const timer = setTimeout(done, ms);
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
