import {
  jobState,
  newJobSnapshot,
  tenantOfPayload,
  type JobClaim,
  type JobFilter,
  type JobLane,
  type JobOperatorResult,
  type JobPriority,
  type JobProgress,
  type JobQueue,
  type JobSnapshot,
  type JobState,
  type NewJob,
  type WorkerLease,
} from '@fundi/domain';
import { marks, str, type Row } from '../db/sql-helpers.js';
import type { SqlDb } from '../db/sql-db.js';

const INSERT = `INSERT INTO jobs (id, kind, lane, priority, tenant_id, payload, due_at, attempts, max_attempts,
  idempotency_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING`;
const HELD = 'id = ? AND lease_owner = ? AND done_at IS NULL';
/**
 * The claim time of the earliest interactive job running (in any process), or '' when none runs: background jobs
 * are claimed only when it is at most the hold's start (now - backgroundWaitMs). Answered from the partial index of
 * unfinished interactive jobs.
 */
const EARLIEST_INTERACTIVE = `COALESCE((SELECT MIN(claimed_at) FROM jobs WHERE priority = 'interactive'
  AND done_at IS NULL AND lease_until >= ?), '')`;
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

export class SqlJobQueue implements JobQueue {
  constructor(private readonly db: SqlDb) {}

  async enqueue(j: NewJob): Promise<JobSnapshot> {
    const { changes } = await this.db.run(INSERT, [
      j.id,
      j.kind,
      j.lane,
      j.priority ?? 'normal',
      j.tenantId ?? tenantOfPayload(j.payload),
      JSON.stringify(j.payload),
      j.dueAt,
      j.maxAttempts,
      j.idempotencyKey,
      j.createdAt,
    ]);
    // Inserted: the row is what was given (not read back: a trigger job's payload of 1,000 learners would be parsed
    // again for nothing). Not inserted: the job that has the key.
    if (changes > 0 || !j.idempotencyKey) return newJobSnapshot(j);
    const row = await this.db.first<Row>('SELECT * FROM jobs WHERE idempotency_key = ?', [j.idempotencyKey]);
    return rowToJob(row!);
  }

  /** One statement on both databases: pick (SKIP LOCKED on Postgres), lease and count the attempt, return the rows. */
  async claimDue(c: JobClaim): Promise<JobSnapshot[]> {
    if (c.kinds.length === 0 || c.limit <= 0) return [];
    const holdStart = new Date(Date.parse(c.now) - c.backgroundWaitMs).toISOString();
    const pick = `SELECT id FROM jobs WHERE lane = ? AND done_at IS NULL AND due_at <= ? AND (lease_until IS NULL OR lease_until < ?)
      AND kind IN (${marks(c.kinds.length)}) AND (priority <> 'background' OR ${EARLIEST_INTERACTIVE} <= ?)
      ORDER BY due_at LIMIT ? ${this.db.dialect.skipLocked}`;
    const rows = await this.db.all<Row>(
      `UPDATE jobs SET lease_owner = ?, lease_until = ?, claimed_at = ?, attempts = attempts + 1
       WHERE ${this.db.dialect.amongPicked('id', pick)} RETURNING *`,
      [c.owner, c.leaseUntil, c.now, c.lane, c.now, c.now, ...c.kinds, c.now, holdStart, c.limit],
    );
    return rows.map(rowToJob).sort((a, b) => (a.dueAt < b.dueAt ? -1 : a.dueAt > b.dueAt ? 1 : 0));
  }

  async heartbeat(id: string, owner: string, leaseUntil: string): Promise<boolean> {
    return (await this.db.run(`UPDATE jobs SET lease_until = ? WHERE ${HELD}`, [leaseUntil, id, owner])).changes > 0;
  }

  async reportProgress(id: string, owner: string, p: JobProgress): Promise<boolean> {
    const sql = `UPDATE jobs SET progress_processed = ?, progress_total = ? WHERE ${HELD}`;
    return (await this.db.run(sql, [p.processed, p.total, id, owner])).changes > 0;
  }

  async finish(id: string, owner: string, at: string, error: string | null): Promise<void> {
    await this.db.run(
      'UPDATE jobs SET done_at = ?, last_error = ?, lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?',
      [at, error, id, owner],
    );
  }

  async retry(id: string, owner: string, dueAt: string, error: string): Promise<void> {
    await this.db.run(
      'UPDATE jobs SET due_at = ?, last_error = ?, lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?',
      [dueAt, error, id, owner],
    );
  }

  async release(owner: string): Promise<number> {
    return (
      await this.db.run(
        'UPDATE jobs SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ? AND done_at IS NULL',
        [owner],
      )
    ).changes;
  }

  async findById(id: string): Promise<JobSnapshot | null> {
    const row = await this.db.first<Row>('SELECT * FROM jobs WHERE id = ?', [id]);
    return row ? rowToJob(row) : null;
  }

  async list(f: JobFilter): Promise<JobSnapshot[]> {
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
    const rows = await this.db.all<Row>(
      `SELECT * FROM jobs ${where.length ? `WHERE ${where.map((w) => `(${w})`).join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`,
      [...args, f.limit],
    );
    return rows.map(rowToJob);
  }

  async retryNow(id: string, now: string): Promise<JobOperatorResult> {
    const { changes } = await this.db.run(
      `UPDATE jobs SET due_at = ?, attempts = 0, last_error = NULL, done_at = NULL, lease_owner = NULL,
       lease_until = NULL, progress_processed = NULL, progress_total = NULL
       WHERE id = ? AND (${STATE_SQL.failed.sql})`,
      [now, id, now],
    );
    return this.outcome(id, now, changes > 0);
  }

  async cancel(id: string, now: string): Promise<JobOperatorResult> {
    const { changes } = await this.db.run(
      `UPDATE jobs SET cancelled_at = ?, done_at = COALESCE(done_at, ?), lease_owner = NULL, lease_until = NULL
       WHERE id = ? AND ((${STATE_SQL.queued.sql}) OR (${STATE_SQL.failed.sql}))`,
      [now, now, id, now, now],
    );
    return this.outcome(id, now, changes > 0);
  }

  /** The job after a conditional change (one statement, so atomic against a claim), or the state that refused it. */
  private async outcome(id: string, now: string, changed: boolean): Promise<JobOperatorResult> {
    const job = await this.findById(id);
    if (changed && job) return { changed: true, job };
    return { changed: false, job, state: job ? jobState(job, now) : null };
  }

  async pruneFinished(before: string, limit: number): Promise<number> {
    const pick = 'SELECT id FROM jobs WHERE done_at IS NOT NULL AND done_at < ? ORDER BY done_at LIMIT ?';
    const { changes } = await this.db.run(`DELETE FROM jobs WHERE ${this.db.dialect.amongPicked('id', pick)}`, [
      before,
      limit,
    ]);
    return changes;
  }
}

/** One row, `main`: taken when free or expired, renewed by its holder (upsert with a condition, both dialects). */
export class SqlWorkerLease implements WorkerLease {
  constructor(private readonly db: SqlDb) {}

  async acquire(owner: string, now: string, until: string): Promise<boolean> {
    const { changes } = await this.db.run(
      `INSERT INTO worker_lease (name, owner, lease_until) VALUES ('main', ?, ?)
       ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until
       WHERE worker_lease.owner = excluded.owner OR worker_lease.lease_until < ?`,
      [owner, until, now],
    );
    return changes > 0;
  }

  async release(owner: string): Promise<void> {
    await this.db.run(`DELETE FROM worker_lease WHERE name = 'main' AND owner = ?`, [owner]);
  }
}

function rowToJob(r: Row): JobSnapshot {
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
