import type { JobDefinition } from '@fundi/application';
import type { JobLane, JobSnapshot } from '@fundi/domain';
import { executeJob } from './job-execution.js';
import type { JobRunnerDeps } from './job-runner-deps.js';
import { scheduleNext } from './recurring-jobs.js';
import { StorageOutage } from './storage-outage.js';

export type { JobRunnerDeps } from './job-runner-deps.js';

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
  /** Jobs whose run succeeded and whose finish is being written (their slots are free already). */
  private readonly finishing = new Set<Promise<void>>();
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
    const jobs = await this.deps.queue.claimDue({
      owner,
      lane: this.lane,
      kinds: open.map((k) => k.kind),
      now: now.toISOString(),
      leaseUntil: until,
      limit,
      backgroundWaitMs: this.deps.backgroundWaitMs,
    });
    // A claim that was under way when the worker began stopping starts nothing: the stop gives its leases back.
    if (this.stopping) return false;
    for (const job of jobs) this.start(job);
    return jobs.length > 0 && this.running.size < this.slots;
  }

  /** Aborts every running job and resolves when they settled or after `ms`. */
  async stop(ms: number): Promise<void> {
    this.stopping = true;
    for (const r of this.running.values()) r.abort.abort(new Error('worker stopping'));
    const all = Promise.allSettled([...[...this.running.values()].map((r) => r.done), ...this.finishing]);
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
    // A run that succeeded frees its slot before its finish is written: the lane claims the next job while the
    // finish is on its way (two round trips at once, not one after the other). The job no longer counts against
    // its kind's cap then (its work is over); a stop still waits for its finish (`finishing`).
    let freed = false;
    const free = () => {
      if (freed) return;
      freed = true;
      this.running.delete(job.id);
      this.onFree();
    };
    const done: Promise<void> = executeJob(
      this.deps,
      this.outage,
      job,
      def,
      abort,
      () => this.stopping,
      () => {
        this.finishing.add(done);
        free();
      },
    )
      .catch((e) =>
        // Recording the outcome failed (the database went away, or the worker is closing it): the lease runs out
        // and another worker runs the job again from its last progress. Never an unhandled rejection.
        this.outage.failed(e, 'job outcome', () =>
          this.deps.logger.warn({ jobId: job.id, kind: job.kind, err: e }, 'job outcome not recorded'),
        ),
      )
      .finally(() => {
        clearInterval(beat);
        this.finishing.delete(done);
        interactive?.leave();
        free();
      });
    this.running.set(job.id, { kind: job.kind, abort, done });
  }

  private async heartbeat(id: string, abort: AbortController): Promise<void> {
    const until = new Date(this.deps.clock.now().getTime() + this.deps.leaseMs).toISOString();
    try {
      const held = await this.deps.queue.heartbeat(id, this.deps.owner, until);
      this.outage.reached();
      if (!held) abort.abort(new Error('job lease lost'));
    } catch (e) {
      // The database did not answer this time; the lease may still hold, so the job goes on until a beat says no.
      this.outage.failed(e, 'job heartbeat', () =>
        this.deps.logger.warn({ jobId: id, err: e }, 'job heartbeat failed'),
      );
    }
  }

  /** Queues the next occurrence after `now` of every recurring job of this lane, and those to run on start. */
  async scheduleAllRecurring(now: Date): Promise<void> {
    for (const def of this.defs.values()) {
      if (def.recurring?.onStart) await scheduleNext(this.deps, def, now, now);
      await scheduleNext(this.deps, def, now);
    }
  }
}
