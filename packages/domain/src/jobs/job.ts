/**
 * Background work as rows with a due time (issue 4): retries, replays now; exports, imports, notifications and
 * purges later. Rows survive restarts; a crashed worker's lease expires and the job is claimed again, so a
 * handler must tolerate running twice.
 */
export interface JobSnapshot {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  dueAt: string;
  leaseOwner: string | null;
  leaseUntil: string | null;
  attempts: number;
  lastError: string | null;
  /** Set when the job succeeded or gave up. */
  doneAt: string | null;
  createdAt: string;
}

/** Port: the jobs table. */
export interface JobQueue {
  enqueue(job: Pick<JobSnapshot, 'id' | 'kind' | 'payload' | 'dueAt' | 'createdAt'>): Promise<void>;
  /**
   * Leases up to `limit` due, unfinished jobs of `kinds` to `owner` until `leaseUntil`, and counts the attempt.
   * Concurrent callers never get the same job while its lease holds. Must run inside a transaction.
   */
  claimDue(owner: string, kinds: readonly string[], now: string, leaseUntil: string, limit: number): Promise<JobSnapshot[]>;
  /** Finished (successfully, or given up with `error`). */
  finish(id: string, owner: string, at: string, error: string | null): Promise<void>;
  /** Failed this time; due again at `dueAt`. */
  retry(id: string, owner: string, dueAt: string, error: string): Promise<void>;
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
