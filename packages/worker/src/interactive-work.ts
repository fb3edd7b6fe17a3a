/**
 * The interactive jobs this worker runs (an import someone waits for). Background jobs wait for interactive ones by
 * the claim's own rule (`JobQueue.claimDue`, in every process); this only wakes the lanes when the last interactive
 * job of this worker ends (`onClear`), so the background jobs that waited start at once instead of at the next poll.
 */
export class InteractiveWork {
  private running = 0;

  constructor(private readonly onClear: () => void) {}

  enter(): void {
    this.running++;
  }

  leave(): void {
    if (--this.running === 0) this.onClear();
  }
}
