import type { JobLane, JobProgress, JobSnapshot, JobState, NewJob } from './job.js';

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
   * Adds the jobs in one statement (a bulk send's send jobs); a job whose idempotency key exists (done or not) is
   * left out, as `enqueue` would add nothing for it. Runs in the caller's transaction.
   */
  enqueueMany(jobs: readonly NewJob[]): Promise<void>;
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
