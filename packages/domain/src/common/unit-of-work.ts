import type { AuditLog } from '../audit/audit.js';
import type { Outbox } from '../events/outbox.js';
import type { JobQueue } from '../jobs/job-queue.js';

/**
 * Port: runs `work` in one transaction over the repositories `R` it hands out. Everything written through them
 * commits together or not at all; a thrown error rolls back and is rethrown unchanged. A use case names only the
 * repositories it needs (`UnitOfWork<LearnerRepos & PlatformRepos>`); the real one hands out every capability's.
 */
export interface UnitOfWork<R> {
  run<T>(work: (tx: R) => Promise<T>): Promise<T>;
}

/** The repositories every capability writes through: the audit log, the outbox and the jobs table. */
export interface PlatformRepos {
  audit: AuditLog;
  outbox: Outbox;
  jobs: JobQueue;
}
