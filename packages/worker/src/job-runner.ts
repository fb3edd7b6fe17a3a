import type { JobContext, JobDefinition, UnitOfWork } from '@fundi/application';
import {
  isStorageUnavailable,
  type Clock,
  type JobLane,
  type JobProgress,
  type JobQueue,
  type JobSnapshot,
  type PlatformRepos,
} from '@fundi/domain';
import type { InteractiveWork } from './interactive-work.js';
import { scheduleNext } from './recurring-jobs.js';
import { backoffAfter, StorageOutage } from './storage-outage.js';
import type { WorkerLogger } from './worker-ports.js';

const backoffMs = (attempts: number) => Math.min(30_000 * 2 ** (attempts - 1), 3_600_000);
/** The first wait before a job is given back again while the database stays away (doubling up to `MAX_BACKOFF_MS`). */
const GIVE_BACK_FIRST_WAIT_MS = 100;

export interface JobRunnerDeps {
  uow: UnitOfWork<Pick<PlatformRepos, 'jobs'>>;
  clock: Clock;
  logger: WorkerLogger;
  owner: string;
  leaseMs: number;
  /** How long background jobs wait at most for the interactive ones running (see `JobPriority`). */
  backgroundWaitMs: number;
  /** The worker's interactive jobs, shared by its lanes: when the last one ends, the lanes are woken. */
  interactive?: InteractiveWork;
  /** The worker's record of database outages, shared by its loops (one log line per outage). */
  outage?: StorageOutage;
}

interface Running {
  kind: string;
  abort: AbortController;
  done: Promise<void>;
}

/**
 * Runs the jobs of one lane with a fixed number of slots (docs/architecture.md, "Background jobs"): claims due jobs
 * as slots free up, runs them concurrently, renews each lease while its job runs (a lost lease aborts the job), and
 * records success, a retry with backoff, or the final failure. Per-kind caps (`concurrency`) are never exceeded, and
 * background jobs wait while interactive ones run, in this worker or another (the claim's rule, see `JobPriority`).
 */
export class JobLaneRunner {
  private readonly running = new Map<string, Running>();
  private readonly outage: StorageOutage;
  private stopping = false;
  /** Called when a slot frees, so the lane's loop claims again at once. */
  onFree: () => void = () => {};

  constructor(
    private readonly lane: JobLane,
    private readonly defs: ReadonlyMap<string, JobDefinition<unknown>>,
    private readonly slots: number,
    private readonly deps: JobRunnerDeps,
  ) {
    this.outage = deps.outage ?? new StorageOutage(deps.logger);
  }

  get busy(): number {
    return this.running.size;
  }

  /** One round of claiming: true when it started jobs and has room for more. */
  async tick(): Promise<boolean> {
    const room = this.slots - this.running.size;
    const open = [...this.defs.values()]
      .map((d) => ({ kind: d.kind, left: (d.concurrency ?? this.slots) - this.countOf(d.kind) }))
      .filter((k) => k.left > 0);
    if (this.stopping || room <= 0 || open.length === 0) return false;
    // Never more than the smallest remaining per-kind allowance in one claim, so no kind can pass its cap.
    const limit = Math.min(room, ...open.map((k) => k.left));
    const now = this.deps.clock.now();
    const until = new Date(now.getTime() + this.deps.leaseMs).toISOString();
    const { owner } = this.deps;
    const jobs = await this.deps.uow.run((tx) =>
      tx.jobs.claimDue({
        owner,
        lane: this.lane,
        kinds: open.map((k) => k.kind),
        now: now.toISOString(),
        leaseUntil: until,
        limit,
        backgroundWaitMs: this.deps.backgroundWaitMs,
      }),
    );
    // A claim that was under way when the worker began stopping starts nothing: the stop gives its leases back.
    if (this.stopping) return false;
    for (const job of jobs) this.start(job);
    return jobs.length > 0 && this.running.size < this.slots;
  }

  /** Aborts every running job and resolves when they settled or after `ms`. */
  async stop(ms: number): Promise<void> {
    this.stopping = true;
    for (const r of this.running.values()) r.abort.abort(new Error('worker stopping'));
    const all = Promise.allSettled([...this.running.values()].map((r) => r.done));
    await Promise.race([all, new Promise((ok) => setTimeout(ok, ms))]);
  }

  private countOf(kind: string): number {
    let n = 0;
    for (const r of this.running.values()) if (r.kind === kind) n++;
    return n;
  }

  private start(job: JobSnapshot): void {
    const def = this.defs.get(job.kind)!;
    const abort = new AbortController();
    const interactive = def.priority === 'interactive' ? this.deps.interactive : undefined;
    interactive?.enter();
    const beat = setInterval(() => void this.heartbeat(job.id, abort), Math.max(20, Math.floor(this.deps.leaseMs / 3)));
    const done = this.execute(job, def, abort)
      .catch((e) =>
        // Recording the outcome failed (the database went away, or the worker is closing it): the lease runs out
        // and another worker runs the job again from its last progress. Never an unhandled rejection.
        this.outage.failed(e, 'job outcome', () =>
          this.deps.logger.warn({ jobId: job.id, kind: job.kind, err: e }, 'job outcome not recorded'),
        ),
      )
      .finally(() => {
        clearInterval(beat);
        this.running.delete(job.id);
        interactive?.leave();
        this.onFree();
      });
    this.running.set(job.id, { kind: job.kind, abort, done });
  }

  private async heartbeat(id: string, abort: AbortController): Promise<void> {
    const until = new Date(this.deps.clock.now().getTime() + this.deps.leaseMs).toISOString();
    try {
      const held = await this.deps.uow.run((tx) => tx.jobs.heartbeat(id, this.deps.owner, until));
      this.outage.reached();
      if (!held) abort.abort(new Error('job lease lost'));
    } catch (e) {
      // The database did not answer this time; the lease may still hold, so the job goes on until a beat says no.
      this.outage.failed(e, 'job heartbeat', () =>
        this.deps.logger.warn({ jobId: id, err: e }, 'job heartbeat failed'),
      );
    }
  }

  private async execute(job: JobSnapshot, def: JobDefinition<unknown>, abort: AbortController): Promise<void> {
    const { uow, owner, logger } = this.deps;
    let payload: unknown;
    try {
      payload = def.parse(job.payload);
    } catch (e) {
      return this.fail(job, `payload rejected: ${messageOf(e)}`, true);
    }
    try {
      await def.run(payload, this.context(job, abort));
      if (abort.signal.aborted) return;
      await uow.run((tx) => tx.jobs.finish(job.id, owner, this.deps.clock.now().toISOString(), null));
    } catch (e) {
      // Stopping or lease lost: the job is not ours to record; it runs again from its last progress.
      if (abort.signal.aborted) return;
      if (isStorageUnavailable(e)) return this.giveBack(job, abort, e);
      logger.warn({ jobId: job.id, kind: job.kind, attempts: job.attempts, error: messageOf(e) }, 'job failed');
      return this.fail(job, messageOf(e), job.attempts >= job.maxAttempts);
    }
    if (def.recurring)
      await scheduleNext(this.deps, def, new Date(job.dueAt)).catch((e) =>
        // The worker queues every recurring job again when it starts and when an outage ends.
        this.outage.failed(e, 'recurring jobs', () =>
          logger.error({ kind: job.kind, err: e }, 'could not schedule the next occurrence'),
        ),
      );
  }

  /**
   * The job failed because the database could not be reached, which is no failure of the job: it goes back to the
   * queue, due at once, never failed for good (the attempt stays counted, as claimed). While the database stays away,
   * giving it back is tried again with growing waits (the heartbeat keeps renewing the lease meanwhile), until it
   * works, the lease is lost or the worker stops; a worker that stops gives back its leases itself.
   */
  private async giveBack(job: JobSnapshot, abort: AbortController, cause: unknown): Promise<void> {
    const error = `storage unavailable: ${messageOf((cause as { cause?: unknown }).cause ?? cause)}`;
    for (let failures = 1; !abort.signal.aborted && !this.stopping; failures++) {
      try {
        const now = this.deps.clock.now().toISOString();
        await this.deps.uow.run((tx) => tx.jobs.retry(job.id, this.deps.owner, now, error));
        this.outage.reached();
        return;
      } catch (e) {
        if (!isStorageUnavailable(e)) throw e;
        this.outage.failed(e, 'job give-back', () => {});
        await pause(backoffAfter(failures, GIVE_BACK_FIRST_WAIT_MS), abort.signal);
      }
    }
  }

  private context(job: JobSnapshot, abort: AbortController): JobContext {
    const ctx = {
      attempt: job.attempts,
      progress: job.progress,
      signal: abort.signal,
      report: (p: JobProgress) => this.deps.uow.run((tx) => ctx.reportIn(tx.jobs, p)),
      reportIn: async (jobs: JobQueue, p: JobProgress) => {
        if (!(await jobs.reportProgress(job.id, this.deps.owner, p))) {
          abort.abort(new Error('job lease lost'));
          throw new Error('job lease lost');
        }
        ctx.progress = p;
      },
    };
    return ctx;
  }

  private async fail(job: JobSnapshot, error: string, final: boolean): Promise<void> {
    const now = this.deps.clock.now();
    const { owner } = this.deps;
    await this.deps.uow.run((tx) =>
      final
        ? tx.jobs.finish(job.id, owner, now.toISOString(), error)
        : tx.jobs.retry(job.id, owner, new Date(now.getTime() + backoffMs(job.attempts)).toISOString(), error),
    );
  }

  /** Queues the next occurrence after `now` of every recurring job of this lane, and those to run on start. */
  async scheduleAllRecurring(now: Date): Promise<void> {
    for (const def of this.defs.values()) {
      if (def.recurring?.onStart) await scheduleNext(this.deps, def, now, now);
      await scheduleNext(this.deps, def, now);
    }
  }
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((ok) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      ok();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
