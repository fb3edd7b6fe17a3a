/**
 * Background work as rows with a due time (docs/architecture.md, "Background jobs"): replays, imports, exports,
 * notifications, purges. Rows survive restarts; a job runs under a lease that its worker renews while it runs, and
 * a crashed worker's lease expires so the job is claimed again. A job may therefore run more than once; it reads
 * its last recorded progress to resume where it stopped.
 */
export type JobLane = 'short' | 'long';

export interface JobProgress {
  processed: number;
  total: number | null;
}

export interface JobSnapshot {
  id: string;
  kind: string;
  /** Short jobs (mail, webhooks replay) never wait behind long ones (imports, exports): each lane has its slots. */
  lane: JobLane;
  payload: unknown;
  dueAt: string;
  leaseOwner: string | null;
  leaseUntil: string | null;
  /** Attempts started so far (the running one included). */
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  /** Set when the job succeeded, or gave up after `maxAttempts` (then `lastError` says why). */
  doneAt: string | null;
  /** One job per key: enqueueing again with the same key adds nothing. */
  idempotencyKey: string | null;
  progress: JobProgress | null;
  createdAt: string;
}

export type NewJob = Pick<
  JobSnapshot,
  'id' | 'kind' | 'lane' | 'payload' | 'dueAt' | 'maxAttempts' | 'idempotencyKey' | 'createdAt'
>;

/** A job as it is when enqueued: never leased, tried or done. */
export function newJobSnapshot(j: NewJob): JobSnapshot {
  return {
    id: j.id,
    kind: j.kind,
    lane: j.lane,
    payload: j.payload,
    dueAt: j.dueAt,
    leaseOwner: null,
    leaseUntil: null,
    attempts: 0,
    maxAttempts: j.maxAttempts,
    lastError: null,
    doneAt: null,
    idempotencyKey: j.idempotencyKey,
    progress: null,
    createdAt: j.createdAt,
  };
}

/** Port: the jobs table. Every method that changes a leased job does so only while `owner` holds its lease. */
export interface JobQueue {
  /** Adds the job, or, when a job with the same idempotency key exists (done or not), adds nothing and returns it. */
  enqueue(job: NewJob): Promise<JobSnapshot>;
  /**
   * Leases up to `limit` due, unfinished, unleased (or lease-expired) jobs of `lane` whose kind is in `kinds`, oldest
   * due first, to `owner` until `leaseUntil`, and counts the attempt. Concurrent callers never get the same job
   * while its lease holds (Postgres: SKIP LOCKED). Runs in the caller's transaction.
   */
  claimDue(
    owner: string,
    lane: JobLane,
    kinds: readonly string[],
    now: string,
    leaseUntil: string,
    limit: number,
  ): Promise<JobSnapshot[]>;
  /** Extends the lease to `leaseUntil`; false when `owner` no longer holds it (expired and taken, or released). */
  heartbeat(id: string, owner: string, leaseUntil: string): Promise<boolean>;
  /** Records progress, readable by anyone through `findById`; false when `owner` no longer holds the lease. */
  reportProgress(id: string, owner: string, progress: JobProgress): Promise<boolean>;
  /** Finished: successfully (`error` null) or given up with `error`. */
  finish(id: string, owner: string, at: string, error: string | null): Promise<void>;
  /** Failed this time; due again at `dueAt`, unleased. */
  retry(id: string, owner: string, dueAt: string, error: string): Promise<void>;
  /** Gives back every unfinished job `owner` holds (graceful stop); returns how many. */
  release(owner: string): Promise<number>;
  findById(id: string): Promise<JobSnapshot | null>;
}

/**
 * Port: on SQLite, one worker process runs the loops at a time: the holder of an unexpired lease on one row.
 * `acquire` takes or renews it for `owner`; false when another owner's lease holds.
 */
export interface WorkerLease {
  acquire(owner: string, now: string, until: string): Promise<boolean>;
  release(owner: string): Promise<void>;
}
