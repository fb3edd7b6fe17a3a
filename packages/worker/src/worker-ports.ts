import type { ClaimDeliveries, DispatchOutbox, RecordDeliveryOutcomes, UnitOfWork, WebhookTransport } from '@fundi/application';
import type { Clock, JobSnapshot, WorkerLease } from '@fundi/domain';

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
}

/** A background job's code, registered by kind. It may run twice (after a crash), so it must be idempotent enough. */
export type JobHandler = (payload: Record<string, unknown>, job: JobSnapshot) => Promise<unknown>;

/** What the worker runs on: use cases and ports, never the container. */
export interface WorkerDeps {
  uow: UnitOfWork;
  clock: Clock;
  logger: WorkerLogger;
  /** SQLite: only the holder of this lease runs the loops. Null: row leases alone share the work (Postgres). */
  lease: WorkerLease | null;
  dispatchOutbox: DispatchOutbox;
  claimDeliveries: ClaimDeliveries;
  recordOutcomes: RecordDeliveryOutcomes;
  transport: WebhookTransport;
  /** Job handlers by kind. */
  handlers: Record<string, JobHandler>;
}
