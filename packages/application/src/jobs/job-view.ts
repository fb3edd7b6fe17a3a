import { jobState, type JobSnapshot, type JobState } from '@fundi/domain';

/** A job as the operator's CLI shows it (`fundi jobs ...`); the payload only in the view of one job. */
export interface JobView {
  id: string;
  kind: string;
  lane: string;
  priority: string;
  state: JobState;
  tenantId: string | null;
  attempts: number;
  maxAttempts: number;
  dueAt: string;
  createdAt: string;
  claimedAt: string | null;
  leaseOwner: string | null;
  leaseUntil: string | null;
  doneAt: string | null;
  cancelledAt: string | null;
  lastError: string | null;
  progress: { processed: number; total: number | null } | null;
  payload?: unknown;
}

export function jobView(j: JobSnapshot, now: Date, o: { payload?: boolean } = {}): JobView {
  return {
    id: j.id,
    kind: j.kind,
    lane: j.lane,
    priority: j.priority,
    state: jobState(j, now.toISOString()),
    tenantId: j.tenantId,
    attempts: j.attempts,
    maxAttempts: j.maxAttempts,
    dueAt: j.dueAt,
    createdAt: j.createdAt,
    claimedAt: j.claimedAt,
    leaseOwner: j.leaseOwner,
    leaseUntil: j.leaseUntil,
    doneAt: j.doneAt,
    cancelledAt: j.cancelledAt,
    lastError: j.lastError,
    progress: j.progress,
    ...(o.payload ? { payload: j.payload } : {}),
  };
}
