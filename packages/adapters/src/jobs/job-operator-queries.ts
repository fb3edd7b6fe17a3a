import { jobState, type JobFilter, type JobOperatorResult, type JobSnapshot, type JobState } from '@fundi/domain';
import type { Row } from '../db/sql-helpers.js';
import type { SqlDb } from '../db/sql-db.js';
import { rowToJob } from './job-rows.js';

/** What an operator sees of the jobs and does to them (`fundi jobs`, docs/architecture.md "Background jobs"): list, retry now, cancel. */

/** Each state of `jobState` as a condition; `?` is the time a lease is judged at. */
const STATE_SQL: Record<JobState, { sql: string; now: boolean }> = {
  queued: { sql: 'done_at IS NULL AND last_error IS NULL AND (lease_until IS NULL OR lease_until < ?)', now: true },
  running: { sql: 'done_at IS NULL AND lease_until >= ?', now: true },
  failed: {
    sql: 'cancelled_at IS NULL AND last_error IS NOT NULL AND (done_at IS NOT NULL OR lease_until IS NULL OR lease_until < ?)',
    now: true,
  },
  done: { sql: 'done_at IS NOT NULL AND last_error IS NULL AND cancelled_at IS NULL', now: false },
  cancelled: { sql: 'cancelled_at IS NOT NULL', now: false },
};

/** The jobs a filter keeps (a state judged at `f.now`), newest first. */
export async function listJobs(db: SqlDb, f: JobFilter): Promise<JobSnapshot[]> {
  const where: string[] = [];
  const args: (string | number)[] = [];
  if (f.state) {
    where.push(STATE_SQL[f.state].sql);
    if (STATE_SQL[f.state].now) args.push(f.now);
  }
  if (f.kind !== undefined) {
    where.push('kind = ?');
    args.push(f.kind);
  }
  if (f.tenantId !== undefined) {
    where.push('tenant_id = ?');
    args.push(f.tenantId);
  }
  const rows = await db.all<Row>(
    `SELECT * FROM jobs ${where.length ? `WHERE ${where.map((w) => `(${w})`).join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`,
    [...args, f.limit],
  );
  return rows.map(rowToJob);
}

/** A failed job queued again at once, its attempts counted afresh. */
export async function retryJobNow(db: SqlDb, id: string, now: string): Promise<JobOperatorResult> {
  const { changes } = await db.run(
    `UPDATE jobs SET due_at = ?, attempts = 0, last_error = NULL, done_at = NULL, lease_owner = NULL,
     lease_until = NULL, progress_processed = NULL, progress_total = NULL
     WHERE id = ? AND (${STATE_SQL.failed.sql})`,
    [now, id, now],
  );
  return outcome(db, id, now, changes > 0);
}

/** A queued or failed job cancelled (a running one is not). */
export async function cancelJob(db: SqlDb, id: string, now: string): Promise<JobOperatorResult> {
  const { changes } = await db.run(
    `UPDATE jobs SET cancelled_at = ?, done_at = COALESCE(done_at, ?), lease_owner = NULL, lease_until = NULL
     WHERE id = ? AND ((${STATE_SQL.queued.sql}) OR (${STATE_SQL.failed.sql}))`,
    [now, now, id, now, now],
  );
  return outcome(db, id, now, changes > 0);
}

/** The job after a conditional change (one statement, so atomic against a claim), or the state that refused it. */
async function outcome(db: SqlDb, id: string, now: string, changed: boolean): Promise<JobOperatorResult> {
  const row = await db.first<Row>('SELECT * FROM jobs WHERE id = ?', [id]);
  const job = row ? rowToJob(row) : null;
  if (changed && job) return { changed: true, job };
  return { changed: false, job, state: job ? jobState(job, now) : null };
}
