import { DeliveryPump } from './delivery-pump.js';
import { JobRunner } from './job-runner.js';
import { Ticker } from './ticker.js';
import type { WorkerDeps, WorkerSettings } from './worker-ports.js';

const DISPATCH_BATCH = 500;

/**
 * The background worker: three loops (outbox fan-out, webhook deliveries, generic jobs) over rows with due
 * times, so scheduled work survives restarts. On Postgres several workers share the work through row leases
 * (SKIP LOCKED); on SQLite only the holder of the worker lease runs the loops.
 */
export class Worker {
  private readonly pump: DeliveryPump;
  private readonly tickers: Ticker[];
  private readonly dispatcher: Ticker;
  private runs: Promise<void>[] = [];
  private holding: boolean;
  private stopping = false;
  private leaseTimer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: WorkerDeps, private readonly s: WorkerSettings) {
    this.pump = new DeliveryPump(deps, s);
    const jobs = new JobRunner(deps.handlers, { ...deps, owner: s.owner, leaseMs: s.leaseMs });
    const report = (loop: string) => (e: unknown) => deps.logger.error({ err: e, loop }, 'worker loop failed');
    const deliveries = new Ticker(() => this.pump.tick(), s.pollMs, report('deliveries'));
    this.dispatcher = new Ticker(async () => {
      const n = await deps.dispatchOutbox.execute(DISPATCH_BATCH);
      if (n > 0) deliveries.nudge();
      return n === DISPATCH_BATCH;
    }, s.pollMs, report('dispatch'));
    this.tickers = [this.dispatcher, deliveries, new Ticker(() => jobs.tick(), s.pollMs, report('jobs'))];
    this.holding = deps.lease === null;
  }

  async start(): Promise<void> {
    if (this.deps.lease) {
      await this.renewLease();
      this.leaseTimer = setInterval(() => void this.renewLease(), Math.max(50, Math.floor(this.s.leaseMs / 3)));
    }
    const active = () => this.holding && !this.stopping;
    this.runs = this.tickers.map((t) => t.run(active));
    this.deps.logger.info({ owner: this.s.owner, lease: this.deps.lease ? 'sqlite worker lease' : 'row leases' }, 'worker started');
  }

  /** Wake the dispatcher now (this process just committed an event). */
  nudge(): void {
    this.dispatcher.nudge();
  }

  /** Graceful stop: claim nothing more, let in-flight requests finish within the grace period, give back every lease. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    for (const t of this.tickers) t.stop();
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    await this.pump.drain(this.s.graceMs);
    await Promise.race([Promise.all(this.runs), new Promise((ok) => setTimeout(ok, this.s.graceMs))]);
    const owner = this.s.owner;
    await this.deps.uow.run(async (tx) => {
      await tx.webhookDeliveries.release(owner);
      await tx.jobs.release(owner);
    }).catch((e) => this.deps.logger.error({ err: e }, 'could not release leases'));
    await this.deps.lease?.release(owner).catch(() => {});
    this.deps.logger.info({ owner, unfinished: this.pump.busy }, 'worker stopped');
  }

  private async renewLease(): Promise<void> {
    const now = this.deps.clock.now();
    try {
      const was = this.holding;
      this.holding = await this.deps.lease!.acquire(this.s.owner, now.toISOString(), new Date(now.getTime() + this.s.leaseMs).toISOString());
      if (this.holding && !was) this.deps.logger.info({ owner: this.s.owner }, 'worker lease acquired');
    } catch (e) {
      this.holding = false;
      this.deps.logger.error({ err: e }, 'worker lease renewal failed');
    }
  }
}
