import type { DeliveryOutcome, DeliveryTask } from '@fundi/application/webhooks';
import { StorageOutage } from './storage-outage.js';
import type { WorkerDeps, WorkerSettings } from './worker-ports.js';

const MAX_CLAIM = 200;
/** How many deliveries per request slot the fan-out may hand straight to this pump (see `handOffRoom`). */
const HAND_OFF_SLOTS = 160;
/** ... and never more than this many in all, whatever the concurrency (about 25 MB of waiting bodies). */
const HAND_OFF_MAX = 16_384;
/** Finished attempts wait at most this long for company before they are written (one transaction for many). */
const FLUSH_DELAY_MS = 20;

/**
 * Keeps up to `concurrency` webhook requests in flight. Deliveries come from this worker's own fan-out, which writes
 * them already leased to it (`accept`), and from claims of whatever else is due. Claims due deliveries ahead of the free slots (up to
 * `concurrency` more wait here, leased), so a request starts the moment another ends instead of after a claim's round
 * trip, sends them, and writes finished attempts in batches: whatever finished within a few milliseconds, or while
 * the previous write ran, goes into one transaction, so a busy worker makes few transactions and an idle one writes
 * almost at once. A delivery is only marked delivered after its 2xx (at-least-once). A waiting delivery whose lease
 * no longer outlasts one attempt is not sent: its lease runs out and it is claimed again, never sent twice at once.
 */
export class DeliveryPump {
  private inFlight = 0;
  private waiting: { task: DeliveryTask; leaseEnds: number }[] = [];
  private closed = false;
  private finished: DeliveryOutcome[] = [];
  private flushing: Promise<void> | null = null;
  private flushTimer: NodeJS.Timeout | null = null;
  private slotFreed: (() => void) | null = null;
  private idle: (() => void) | null = null;

  constructor(
    private readonly deps: WorkerDeps,
    private readonly s: WorkerSettings,
    private readonly outage: StorageOutage = new StorageOutage(deps.logger),
  ) {}

  get busy(): number {
    return this.inFlight;
  }

  /** Deliveries it can claim now beside those in flight and waiting. */
  get room(): number {
    return this.closed ? 0 : Math.max(0, 2 * this.s.concurrency - this.inFlight - this.waiting.length);
  }

  /**
   * Deliveries this worker's own fan-out may lease straight to it: 160 per request slot (10,240 at the default 64),
   * a couple of seconds of sending at full speed, so a burst goes out without claims while a slow receiver piles up
   * at most that many waiting leases (about 15 MB with their bodies); the rest stay in the table for any worker.
   */
  get handOffRoom(): number {
    const cap = Math.min(HAND_OFF_MAX, HAND_OFF_SLOTS * this.s.concurrency);
    return this.closed ? 0 : Math.max(0, cap - this.inFlight - this.waiting.length);
  }

  /** Deliveries leased to this worker elsewhere (by the fan-out), sent like claimed ones. */
  accept(tasks: readonly DeliveryTask[], leaseEnds: number): void {
    if (this.closed) return;
    for (const task of tasks) this.waiting.push({ task, leaseEnds });
    this.launchWaiting();
  }

  /** One round of claiming: true when it started work or is waiting for slots (call again at once). */
  async tick(): Promise<boolean> {
    // Claims come in batches of at least `concurrency` (each claim reads the due backlog once), issued while a
    // batch is still in flight, so the claim's round trip overlaps the sends.
    const room = this.room;
    if (room < this.s.concurrency) {
      await new Promise<void>((ok) => (this.slotFreed = ok));
      return true;
    }
    const leaseEnds = this.deps.clock.now().getTime() + this.s.leaseMs;
    const tasks = await this.deps.claimDeliveries.execute(this.s.owner, Math.min(room, MAX_CLAIM), this.s.leaseMs);
    if (this.closed) return false;
    for (const task of tasks) this.waiting.push({ task, leaseEnds });
    this.launchWaiting();
    return tasks.length > 0;
  }

  /** Starts nothing more (the worker releases the leases of what waits); resolves when nothing is in flight or being written, or after `ms`. */
  async drain(ms: number): Promise<void> {
    this.closed = true;
    this.waiting = [];
    const deadline = Date.now() + ms;
    while ((this.inFlight > 0 || this.flushing || this.flushTimer || this.finished.length) && Date.now() < deadline) {
      await new Promise<void>((ok) => {
        this.idle = ok;
        setTimeout(ok, Math.min(50, Math.max(1, deadline - Date.now())));
      });
    }
  }

  private launchWaiting(): void {
    // An attempt may take the transport's timeout; without one, assume half the lease.
    const attemptMs = this.deps.transport.timeoutMs ?? this.s.leaseMs / 2;
    while (this.inFlight < this.s.concurrency && this.waiting.length && !this.closed) {
      const { task, leaseEnds } = this.waiting.shift()!;
      const at = this.deps.clock.now();
      if (leaseEnds - at.getTime() > attemptMs) this.launch(task, at);
    }
  }

  private launch(task: DeliveryTask, at: Date): void {
    this.inFlight++;
    void this.deps.transport.send({ ...task.webhook, timestamp: Math.floor(at.getTime() / 1000) }).then((result) => {
      this.finished.push({ task, result, at });
      this.inFlight--;
      this.launchWaiting();
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
          this.outage.failed(e, 'webhook outcomes', () =>
            this.deps.logger.error({ err: e, count: batch.length }, 'could not record webhook attempts'),
          );
        }
      }
      this.flushing = null;
      this.idle?.();
    })();
  }
}
