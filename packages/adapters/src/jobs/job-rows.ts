import type { JobLane, JobPriority, JobSnapshot } from '@fundi/domain';
import { str, type Row } from '../db/sql-helpers.js';

/** A job as its row reads back (a progress without a processed count is none). */
export function rowToJob(r: Row): JobSnapshot {
  const processed = r.progress_processed;
  return {
    id: String(r.id),
    kind: String(r.kind),
    lane: String(r.lane) as JobLane,
    priority: String(r.priority) as JobPriority,
    tenantId: str(r.tenant_id),
    claimedAt: str(r.claimed_at),
    cancelledAt: str(r.cancelled_at),
    payload: JSON.parse(String(r.payload)),
    dueAt: String(r.due_at),
    leaseOwner: str(r.lease_owner),
    leaseUntil: str(r.lease_until),
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    lastError: str(r.last_error),
    doneAt: str(r.done_at),
    idempotencyKey: str(r.idempotency_key),
    createdAt: String(r.created_at),
    progress:
      processed === null || processed === undefined
        ? null
        : { processed: Number(processed), total: r.progress_total === null ? null : Number(r.progress_total) },
  };
}
