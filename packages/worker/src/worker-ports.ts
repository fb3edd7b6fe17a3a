import type {
  ClaimDeliveries,
  DispatchOutbox,
  JobDefinition,
  RecordDeliveryOutcomes,
  UnitOfWork,
  WebhookTransport,
} from '@fundi/application';
import type { Clock, JobLane, PlatformRepos, WebhookRepos, WorkerLease } from '@fundi/domain';

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
}

/** What a work signal announces: events to fan out were written, or jobs were queued. */
export type WorkKind = 'outbox' | 'jobs';

/**
 * Tells the worker at once that another process wrote work (Postgres: LISTEN/NOTIFY), so it need not wait for
 * its next poll. Best effort: a signal may be late or lost (a dropped connection), and polling still finds the work.
 */
export interface WorkSignal {
  /** Calls `onWork` for each announcement from now on, until the returned handle is closed. Never rejects. */
  listen(onWork: (what: WorkKind) => void): Promise<{ close(): Promise<void> }>;
}

/** What the worker runs on: use cases and ports, never the container. */
export interface WorkerDeps {
  /** Gives back leases on stop. */
  uow: UnitOfWork<Pick<PlatformRepos, 'jobs'> & Pick<WebhookRepos, 'webhookDeliveries'>>;
  clock: Clock;
  logger: WorkerLogger;
  /** SQLite: only the holder of this lease runs the loops. Null: row leases alone share the work (Postgres). */
  lease: WorkerLease | null;
  dispatchOutbox: DispatchOutbox;
  claimDeliveries: ClaimDeliveries;
  recordOutcomes: RecordDeliveryOutcomes;
  transport: WebhookTransport;
  /** Wakes the loops when another process writes work; absent or null where only polling finds it (SQLite, memory). */
  workSignal?: WorkSignal | null;
  /** Every capability's job definitions. */
  // biome-ignore lint/suspicious/noExplicitAny: definitions of different payload types run side by side.
  jobs: readonly JobDefinition<any>[];
}
