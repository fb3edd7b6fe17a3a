import type { DeliveryOutcome, DeliveryTask } from '@fundi/application';
import type { WorkerDeps, WorkerSettings } from './worker-ports.js';

const MAX_CLAIM = 200;
/** Finished attempts wait at most this long for company before they are written (one transaction for many). */
const FLUSH_DELAY_MS = 20;

/**
 * Keeps up to `concurrency` webhook requests in flight. Claims due deliveries as slots free up, sends them, and
 * writes finished attempts in batches: whatever finished within a few milliseconds, or while the previous write
 * ran, goes into one transaction, so a busy worker makes few transactions and an idle one writes almost at once. A delivery is only marked delivered
 * after its 2xx (at-least-once).
 */
export class DeliveryPump {
  private inFlight = 0;
  private finished: DeliveryOutcome[] = [];
  private flushing: Promise<void> | null = null;
  private flushTimer: NodeJS.Timeout | null = null;
  private slotFreed: (() => void) | null = null;
  private idle: (() => void) | null = null;

  constructor(
    private readonly deps: WorkerDeps,
    private readonly s: WorkerSettings,
  ) {}

  get busy(): number {
    return this.inFlight;
  }

  /** One round of claiming: true when it started work or is waiting for slots (call again at once). */
  async tick(): Promise<boolean> {
    const room = this.s.concurrency - this.inFlight;
    if (room < Math.max(1, Math.floor(this.s.concurrency / 2))) {
      await new Promise<void>((ok) => (this.slotFreed = ok));
      return true;
    }
    const tasks = await this.deps.claimDeliveries.execute(this.s.owner, Math.min(room, MAX_CLAIM), this.s.leaseMs);
    for (const t of tasks) this.launch(t);
    return tasks.length > 0;
  }

  /** Resolves when nothing is in flight or being written, or after `ms`. */
  async drain(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while ((this.inFlight > 0 || this.flushing || this.flushTimer || this.finished.length) && Date.now() < deadline) {
      await new Promise<void>((ok) => {
        this.idle = ok;
        setTimeout(ok, Math.min(50, Math.max(1, deadline - Date.now())));
      });
    }
  }

  private launch(task: DeliveryTask): void {
    this.inFlight++;
    const at = this.deps.clock.now();
    void this.deps.transport.send({ ...task.webhook, timestamp: Math.floor(at.getTime() / 1000) }).then((result) => {
      this.finished.push({ task, result, at });
      this.inFlight--;
      this.slotFreed?.();
      this.slotFreed = null;
      this.flushSoon();
    });
  }

  private flushSoon(): void {
    if (this.flushTimer || this.flushing) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.flush();
    }, FLUSH_DELAY_MS);
  }

  private flush(): void {
    if (this.flushing) return;
    this.flushing = (async () => {
      while (this.finished.length) {
        const batch = this.finished;
        this.finished = [];
        try {
          await this.deps.recordOutcomes.execute(this.s.owner, batch);
        } catch (e) {
          // The leases stay and expire; those deliveries are sent again (at-least-once, same event ids).
          this.deps.logger.error({ err: e, count: batch.length }, 'could not record webhook attempts');
        }
      }
      this.flushing = null;
      this.idle?.();
    })();
  }
}
