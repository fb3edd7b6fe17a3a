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
