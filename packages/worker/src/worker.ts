import type { JobDefinition } from '@fundi/application';
import type { JobLane } from '@fundi/domain';
import { DeliveryPump } from './delivery-pump.js';
import { InteractiveWork } from './interactive-work.js';
import { JobLaneRunner } from './job-runner.js';
import { StorageOutage } from './storage-outage.js';
import { Ticker } from './ticker.js';
import type { WorkerDeps, WorkerSettings } from './worker-ports.js';

/**
 * Events fanned out per transaction. With row leases (Postgres) each statement of the transaction waits for a turn
 * of the event loop, which the delivery pump keeps busy during a burst: fewer, larger transactions let the fan-out
 * keep ahead of the sends (500 per transaction held a 10,000-event burst to the pace of the fan-out). SQLite (one
 * writer, statements answered at once) keeps 500, so the delivery loop's writes are never held up long behind one.
 */
const DISPATCH_BATCH = { rowLeases: 2000, workerLease: 500 };
const DEFAULT_SLOTS: Record<JobLane, number> = { short: 8, long: 2 };
/** How long background jobs wait at most while interactive ones run (see `JobPriority`). */
const BACKGROUND_WAIT_MS = 30_000;

/**
 * The background worker: three loops (outbox fan-out, webhook deliveries, generic jobs) over rows with due
 * times, so scheduled work survives restarts. On Postgres several workers share the work through row leases
 * (SKIP LOCKED); on SQLite only the holder of the worker lease runs the loops. Idle loops sleep `pollMs`; they
 * wake earlier on `nudge` (this process wrote work) or on the work signal (another process did, on Postgres).
 */
export class Worker {
  private readonly pump: DeliveryPump;
  private readonly tickers: Ticker[];
  private readonly dispatcher: Ticker;
  private readonly lanes: JobLaneRunner[];
  private readonly laneTickers: Ticker[];
  private runs: Promise<void>[] = [];
  private holding: boolean;
  private stopping = false;
  private leaseTimer: NodeJS.Timeout | null = null;
  private listening: { close(): Promise<void> } | null = null;
  private readonly outage: StorageOutage;

  constructor(
    private readonly deps: WorkerDeps,
    private readonly s: WorkerSettings,
  ) {
    const outage = (this.outage = new StorageOutage(deps.logger));
    this.pump = new DeliveryPump(deps, s, outage);
    const report = (loop: string) => (e: unknown) =>
      outage.failed(e, loop, () => deps.logger.error({ err: e, loop }, 'worker loop failed'));
    const slots = { ...DEFAULT_SLOTS, ...s.jobSlots };
    // The last interactive job ended: the lanes claim the background jobs that waited, now.
    const interactive = new InteractiveWork(() => this.nudgeLanes());
    const backgroundWaitMs = s.backgroundWaitMs ?? BACKGROUND_WAIT_MS;
    this.lanes = (['short', 'long'] as const).map((lane) => {
      const defs = new Map(deps.jobs.filter((d) => d.lane === lane).map((d) => [d.kind, d as JobDefinition<unknown>]));
      return new JobLaneRunner(lane, defs, slots[lane], {
        ...deps,
        owner: s.owner,
        leaseMs: s.leaseMs,
        backgroundWaitMs,
        interactive,
        outage,
      });
    });
    const laneTickers = (this.laneTickers = this.lanes.map((lane) => {
      const t = new Ticker(() => lane.tick(), s.pollMs, report(`jobs`));
      lane.onFree = () => t.nudge();
      return t;
    }));
    const deliveries = new Ticker(() => this.pump.tick(), s.pollMs, report('deliveries'));
    const dispatchBatch = deps.lease ? DISPATCH_BATCH.workerLease : DISPATCH_BATCH.rowLeases;
    this.dispatcher = new Ticker(
      async () => {
        // The fan-out leases what the pump has room for straight to it: those need no claim round trip.
        const leaseEnds = deps.clock.now().getTime() + s.leaseMs;
        const handOff = { owner: s.owner, leaseMs: s.leaseMs, room: this.pump.handOffRoom };
        const { taken, tasks } = await deps.dispatchOutbox.execute(dispatchBatch, handOff);
        this.pump.accept(tasks, leaseEnds);
        if (taken > 0) deliveries.nudge();
        return taken === dispatchBatch;
      },
      s.pollMs,
      report('dispatch'),
      // The fan-out reads the database on every round: its success ends an outage.
      () => outage.reached(),
    );
    this.tickers = [this.dispatcher, deliveries, ...laneTickers];
    outage.onRecovery(() => {
      // Every loop that was waiting out the outage looks again at once; an occurrence of a recurring job that could
      // not be queued meanwhile is queued now (once per time, by key).
      for (const t of this.tickers) t.nudge();
      if (!this.stopping) void this.scheduleRecurring();
    });
    this.holding = deps.lease === null;
  }

  async start(): Promise<void> {
    if (this.deps.lease) {
      await this.renewLease();
      this.leaseTimer = setInterval(() => void this.renewLease(), Math.max(50, Math.floor(this.s.leaseMs / 3)));
    }
    const active = () => this.holding && !this.stopping;
    // Listening before the loops' first ticks: whatever is written before it began, those ticks find.
    await this.listen();
    await this.scheduleRecurring();
    this.runs = this.tickers.map((t) => t.run(active));
    this.deps.logger.info(
      { owner: this.s.owner, lease: this.deps.lease ? 'sqlite worker lease' : 'row leases' },
      'worker started',
    );
  }

  /** Wake the dispatcher and the job lanes now (this process just committed an event or queued a job). */
  nudge(): void {
    this.dispatcher.nudge();
    this.nudgeLanes();
  }

  private nudgeLanes(): void {
    for (const t of this.laneTickers) t.nudge();
  }

  /** Another process wrote work (the work signal): wake the loop that takes it. Polling stays the safety net. */
  private async listen(): Promise<void> {
    const signal = this.deps.workSignal;
    if (!signal) return;
    try {
      const listening = await signal.listen((what) => {
        if (this.stopping) return;
        if (what === 'outbox') this.dispatcher.nudge();
        else for (const t of this.laneTickers) t.nudge();
      });
      // Stopped while the listener connected: nothing closes it later.
      if (this.stopping) await listening.close();
      else this.listening = listening;
    } catch (e) {
      this.deps.logger.warn({ err: e }, 'work signal unavailable: the worker polls only');
    }
  }

  /**
   * Graceful stop: claim nothing more, let in-flight requests finish within the grace period (the settings', or
   * `graceMs` when shorter: what the process has left), give back every lease.
   */
  async stop(graceMs = this.s.graceMs): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    const ends = Date.now() + Math.min(graceMs, this.s.graceMs);
    const left = () => Math.max(0, ends - Date.now());
    await this.listening?.close().catch((e) => this.deps.logger.warn({ err: e }, 'could not close the work signal'));
    this.listening = null;
    for (const t of this.tickers) t.stop();
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    await Promise.all([this.pump.drain(left()), ...this.lanes.map((l) => l.stop(left()))]);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(this.runs), new Promise((ok) => (timer = setTimeout(ok, left())))]);
    clearTimeout(timer);
    const owner = this.s.owner;
    await this.deps.uow
      .run(async (tx) => {
        await tx.webhookDeliveries.release(owner);
        await tx.jobs.release(owner);
      })
      // Unreachable: the leases run out by themselves and the work is claimed again after them.
      .catch((e) => this.deps.logger.error({ err: e }, 'could not release leases'));
    await this.deps.lease?.release(owner).catch(() => {});
    this.deps.logger.info({ owner, unfinished: this.pump.busy }, 'worker stopped');
  }

  /** Makes sure the next occurrence of every recurring job is queued (once per time, whichever worker asks). */
  private async scheduleRecurring(): Promise<void> {
    const now = this.deps.clock.now();
    for (const lane of this.lanes)
      await lane
        .scheduleAllRecurring(now)
        .catch((e) =>
          this.outage.failed(e, 'recurring jobs', () =>
            this.deps.logger.error({ err: e }, 'could not schedule recurring jobs'),
          ),
        );
  }

  private async renewLease(): Promise<void> {
    const now = this.deps.clock.now();
    try {
      const was = this.holding;
      this.holding = await this.deps.lease!.acquire(
        this.s.owner,
        now.toISOString(),
        new Date(now.getTime() + this.s.leaseMs).toISOString(),
      );
      this.outage.reached();
      if (this.holding && !was) this.deps.logger.info({ owner: this.s.owner }, 'worker lease acquired');
    } catch (e) {
      this.holding = false;
      this.outage.failed(e, 'worker lease', () => this.deps.logger.error({ err: e }, 'worker lease renewal failed'));
    }
  }
}
