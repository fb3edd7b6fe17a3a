import type { JobContext } from '@fundi/application';
import type { JobProgress, JobQueue, JobSnapshot } from '@fundi/domain';
import type { JobRunnerDeps } from './job-runner-deps.js';

/**
 * What a running job sees: its attempt, its last progress, the signal that aborts it, and progress reports that
 * also check the lease (a lost lease aborts the job).
 */
export function jobContext(deps: JobRunnerDeps, job: JobSnapshot, abort: AbortController): JobContext {
  const ctx = {
    attempt: job.attempts,
    progress: job.progress,
    signal: abort.signal,
    report: (p: JobProgress) => deps.uow.run((tx) => ctx.reportIn(tx.jobs, p)),
    reportIn: async (jobs: JobQueue, p: JobProgress) => {
      if (!(await jobs.reportProgress(job.id, deps.owner, p))) {
        abort.abort(new Error('job lease lost'));
        throw new Error('job lease lost');
      }
      ctx.progress = p;
    },
  };
  return ctx;
}
