/**
 * Background work as rows with a due time (docs/architecture.md, "Background jobs"): replays, imports, exports,
 * notifications, purges. Rows survive restarts; a job runs under a lease that its worker renews while it runs, and
 * a crashed worker's lease expires so the job is claimed again. A job may therefore run more than once; it reads
 * its last recorded progress to resume where it stopped.
 */
export type JobLane = 'short' | 'long';

/**
 * How a job shares the workers (docs/architecture.md, "Background jobs"), stored in its row so that every worker
 * process applies one rule. `interactive`: someone waits for it (an import's dry run or confirm, an export).
 * `background`: nobody does (notifications): while an interactive job runs in any worker, no worker claims a
 * background job, for at most `backgroundWaitMs` after the earliest running interactive job was claimed; after that
 * both kinds run side by side. Work already started goes on.
 */
export type JobPriority = 'interactive' | 'normal' | 'background';
export const JOB_PRIORITIES: readonly JobPriority[] = ['interactive', 'normal', 'background'];

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
  priority: JobPriority;
  /** The tenant the job works for (its payload's `tenantId`), for the operator's view; null for the service's own. */
  tenantId: string | null;
  /** When its current or last attempt was claimed. */
  claimedAt: string | null;
  /** Set when an operator cancelled it (then `doneAt` is set too). */
  cancelledAt: string | null;
}

export type NewJob = Pick<
  JobSnapshot,
  'id' | 'kind' | 'lane' | 'payload' | 'dueAt' | 'maxAttempts' | 'idempotencyKey' | 'createdAt'
> &
  Partial<Pick<JobSnapshot, 'priority' | 'tenantId'>>;

/**
 * Where a job stands, as the operator's view shows it: `queued` (waiting for its first or next run, never failed),
 * `running` (a worker's lease holds), `failed` (its last attempt failed: due again at `dueAt`, or given up after
 * `maxAttempts` when `doneAt` is set), `done` (succeeded), `cancelled` (finished by an operator).
 */
export type JobState = 'queued' | 'running' | 'failed' | 'done' | 'cancelled';
export const JOB_STATES: readonly JobState[] = ['queued', 'running', 'failed', 'done', 'cancelled'];

export function jobState(j: JobSnapshot, now: string): JobState {
  if (j.cancelledAt) return 'cancelled';
  if (j.doneAt) return j.lastError === null ? 'done' : 'failed';
  if (j.leaseUntil !== null && j.leaseUntil >= now) return 'running';
  return j.lastError === null ? 'queued' : 'failed';
}

/** The tenant a payload names (`{tenantId: '...'}`), or null. */
export function tenantOfPayload(payload: unknown): string | null {
  const t = typeof payload === 'object' && payload !== null ? (payload as { tenantId?: unknown }).tenantId : null;
  return typeof t === 'string' ? t : null;
}

/** A job as it is when enqueued: never leased, tried or done. */
export function newJobSnapshot(j: NewJob): JobSnapshot {
  return {
    id: j.id,
    kind: j.kind,
    lane: j.lane,
    priority: j.priority ?? 'normal',
    tenantId: j.tenantId ?? tenantOfPayload(j.payload),
    claimedAt: null,
    cancelledAt: null,
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

/** How a claim is made (`JobQueue.claimDue`). */
export interface JobClaim {
  owner: string;
  lane: JobLane;
  kinds: readonly string[];
  now: string;
  leaseUntil: string;
  limit: number;
  /** How long background jobs wait at most for the interactive ones running (see `JobPriority`). */
  backgroundWaitMs: number;
}

/** The operator's list of jobs (`JobQueue.list`): newest first, filtered by what is given. */
export interface JobFilter {
  state?: JobState;
  kind?: string;
  tenantId?: string;
  limit: number;
  /** The time `running` is judged at (a lease that holds then). */
  now: string;
}

/** What an operator's `retryNow` or `cancel` found: the job after the change, or why nothing changed. */
export type JobOperatorResult =
  | { changed: true; job: JobSnapshot }
  | { changed: false; job: JobSnapshot | null; state: JobState | null };

/** Port: the jobs table. Every method that changes a leased job does so only while `owner` holds its lease. */
export interface JobQueue {
  /** Adds the job, or, when a job with the same idempotency key exists (done or not), adds nothing and returns it. */
  enqueue(job: NewJob): Promise<JobSnapshot>;
  /**
   * Leases up to `limit` due, unfinished, unleased (or lease-expired) jobs of `lane` whose kind is in `kinds`, oldest
   * due first, to `owner` until `leaseUntil`, sets their `claimedAt` to `now`, and counts the attempt. Concurrent
   * callers never get the same job while its lease holds (Postgres: SKIP LOCKED). Background jobs are left while
   * interactive jobs run (leased, unfinished; in any process) and the earliest of their claims is less than
   * `backgroundWaitMs` old. Runs in the caller's transaction.
   */
  claimDue(claim: JobClaim): Promise<JobSnapshot[]>;
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
  /** The operator's view: jobs matching the filter, newest (by id) first, at most `limit`. */
  list(filter: JobFilter): Promise<JobSnapshot[]>;
  /**
   * Operator: a failed job (retrying, or given up) becomes due at `now` with its attempts, error and finish cleared.
   * Any other state changes nothing (`changed: false` with the state found; null job when there is none).
   */
  retryNow(id: string, now: string): Promise<JobOperatorResult>;
  /**
   * Operator: a queued or failed job is finished as cancelled at `now` (never claimed again). A running, done or
   * cancelled job changes nothing. Atomic against a concurrent claim: a job claimed first is running and stays so.
   */
  cancel(id: string, now: string): Promise<JobOperatorResult>;
  /**
   * Retention: deletes up to `limit` jobs finished (done, given up or cancelled) before `before`, oldest first, in
   * one statement; returns how many. Unfinished jobs are never deleted.
   */
  pruneFinished(before: string, limit: number): Promise<number>;
}

/**
 * Port: on SQLite, one worker process runs the loops at a time: the holder of an unexpired lease on one row.
 * `acquire` takes or renews it for `owner`; false when another owner's lease holds.
 */
export interface WorkerLease {
  acquire(owner: string, now: string, until: string): Promise<boolean>;
  release(owner: string): Promise<void>;
}
