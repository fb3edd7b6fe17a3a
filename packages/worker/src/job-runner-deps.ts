import type { UnitOfWork } from '@fundi/application';
import type { Clock, JobQueue, PlatformRepos } from '@fundi/domain';
import type { InteractiveWork } from './interactive-work.js';
import type { StorageOutage } from './storage-outage.js';
import type { WorkerLogger } from './worker-ports.js';

/** What a lane's runner works with: the job queue, the clock, its lease and its shared state. */
export interface JobRunnerDeps {
  uow: UnitOfWork<Pick<PlatformRepos, 'jobs'>>;
  /**
   * The job queue outside any transaction, for the runner's own writes: a claim, a heartbeat, a finish or a retry is
   * one statement, atomic by itself (on Postgres one round trip instead of BEGIN, the statement and COMMIT).
   */
  queue: Pick<JobQueue, 'claimDue' | 'heartbeat' | 'finish' | 'retry'>;
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
