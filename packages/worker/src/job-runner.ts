import type { UnitOfWork } from '@fundi/application';
import type { Clock, JobSnapshot } from '@fundi/domain';
import type { JobHandler, WorkerLogger } from './worker-ports.js';

/** A job that throws is tried again with a growing delay, and given up (done, with its error) after this many. */
export const MAX_JOB_ATTEMPTS = 10;
const backoffMs = (attempts: number) => Math.min(30_000 * 2 ** (attempts - 1), 3_600_000);

/**
 * The generic runner over the `jobs` table: claims due jobs of the registered kinds (leased, so a crashed worker's
 * jobs come back after the lease), runs each handler, and records success, a retry or the final failure.
 */
export class JobRunner {
  private readonly kinds: string[];

  constructor(
    private readonly handlers: Record<string, JobHandler>,
    private readonly deps: { uow: UnitOfWork; clock: Clock; logger: WorkerLogger; owner: string; leaseMs: number },
  ) {
    this.kinds = Object.keys(handlers);
  }

  /** One round: true when it ran something (there may be more). */
  async tick(): Promise<boolean> {
    if (this.kinds.length === 0) return false;
    const now = this.deps.clock.now();
    const until = new Date(now.getTime() + this.deps.leaseMs).toISOString();
    const jobs = await this.deps.uow.run((tx) => tx.jobs.claimDue(this.deps.owner, this.kinds, now.toISOString(), until, 5));
    for (const job of jobs) await this.runOne(job);
    return jobs.length > 0;
  }

  private async runOne(job: JobSnapshot): Promise<void> {
    const { uow, clock, owner, logger } = this.deps;
    try {
      await this.handlers[job.kind]!(job.payload, job);
      await uow.run((tx) => tx.jobs.finish(job.id, owner, clock.now().toISOString(), null));
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      logger.warn({ jobId: job.id, kind: job.kind, attempts: job.attempts, error }, 'job failed');
      const now = clock.now();
      await uow.run((tx) => (job.attempts >= MAX_JOB_ATTEMPTS
        ? tx.jobs.finish(job.id, owner, now.toISOString(), error)
        : tx.jobs.retry(job.id, owner, new Date(now.getTime() + backoffMs(job.attempts)).toISOString(), error)));
    }
  }
}
