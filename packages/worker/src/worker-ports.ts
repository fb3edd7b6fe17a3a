import type { JobDefinition, UnitOfWork, WorkSignal } from '@fundi/application';
import type {
  ClaimDeliveries,
  DispatchOutbox,
  RecordDeliveryOutcomes,
  WebhookTransport,
} from '@fundi/application/webhooks';
import type { Clock, JobLane, JobQueue, PlatformRepos, WorkerLease } from '@fundi/domain';
import type { WebhookRepos } from '@fundi/domain/webhooks';

/** The pino subset the worker logs through. */
export interface WorkerLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface WorkerSettings {
  /** Unique per process: leases carry it. */
  owner: string;
  /** How long a claim holds; a dead worker's work is taken again after it. Must exceed the delivery timeout. */
  leaseMs: number;
  /** Idle polling interval. */
  pollMs: number;
  /** Webhook requests in flight at once. */
  concurrency: number;
  /** On stop, how long in-flight work may take to finish before its leases are given back. */
  graceMs: number;
  /** Jobs run at once per lane (default: short 8, long 2): a long import never takes a mail's slot. */
  jobSlots?: Record<JobLane, number>;
  /**
   * At most this long (default 30 s) background jobs wait while the worker runs interactive ones (an import someone
   * waits for); see `JobPriority`.
   */
  backgroundWaitMs?: number;
}

export type { WorkKind, WorkSignal } from '@fundi/application';

/** What the worker runs on: use cases and ports, never the container. */
export interface WorkerDeps {
  /** Gives back leases on stop. */
  uow: UnitOfWork<Pick<PlatformRepos, 'jobs'> & Pick<WebhookRepos, 'webhookDeliveries'>>;
  /** The job queue outside transactions: the job lanes' claims, heartbeats and outcomes, one statement each. */
  queue: Pick<JobQueue, 'claimDue' | 'heartbeat' | 'finish' | 'retry'>;
  clock: Clock;
  logger: WorkerLogger;
  /** SQLite: only the holder of this lease runs the loops. Null: row leases alone share the work (Postgres). */
  lease: WorkerLease | null;
  dispatchOutbox: Pick<DispatchOutbox, 'execute'>;
  claimDeliveries: Pick<ClaimDeliveries, 'execute'>;
  recordOutcomes: Pick<RecordDeliveryOutcomes, 'execute'>;
  transport: WebhookTransport;
  /** Wakes the loops when another process writes work; absent or null where only polling finds it (SQLite, memory). */
  workSignal?: WorkSignal | null;
  /** Every capability's job definitions. */
  jobs: readonly JobDefinition<unknown>[];
}
