import {
  newJobSnapshot,
  tenantOfPayload,
  type JobClaim,
  type JobFilter,
  type JobOperatorResult,
  type JobProgress,
  type JobQueue,
  type JobSnapshot,
  type NewJob,
} from '@fundi/domain';
import { chunks, marks, type Row } from '../db/sql-helpers.js';
import type { SqlDb } from '../db/sql-db.js';
import type { Binding } from '../db/statements.js';
import { cancelJob, listJobs, retryJobNow } from './job-operator-queries.js';
import { rowToJob } from './job-rows.js';

export { SqlWorkerLease } from './sql-worker-lease.js';

const COLUMNS = `INSERT INTO jobs (id, kind, lane, priority, tenant_id, payload, due_at, attempts, max_attempts,
  idempotency_key, created_at) VALUES `;
const ROW = '(?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)';
const PARAMS_PER_JOB = 10;
const CONFLICT = ' ON CONFLICT (idempotency_key) DO NOTHING';
const INSERT = COLUMNS + ROW + CONFLICT;
const HELD = 'id = ? AND lease_owner = ? AND done_at IS NULL';
/**
 * The claim time of the earliest interactive job running (in any process), or '' when none runs: background jobs
 * are claimed only when it is at most the hold's start (now - backgroundWaitMs). Answered from the partial index of
 * unfinished interactive jobs.
 */
const EARLIEST_INTERACTIVE = `COALESCE((SELECT MIN(claimed_at) FROM jobs WHERE priority = 'interactive'
  AND done_at IS NULL AND lease_until >= ?), '')`;
export class SqlJobQueue implements JobQueue {
  constructor(private readonly db: SqlDb) {}

  async enqueue(j: NewJob): Promise<JobSnapshot> {
    const { changes } = await this.db.run(INSERT, params(j));
    // Inserted: the row is what was given (not read back: a trigger job's payload of 1,000 learners would be parsed
    // again for nothing). Not inserted: the job that has the key.
    if (changes > 0 || !j.idempotencyKey) return newJobSnapshot(j);
    const row = await this.db.first<Row>('SELECT * FROM jobs WHERE idempotency_key = ?', [j.idempotencyKey]);
    return rowToJob(row!);
  }

  /**
   * One INSERT of the rows (a bulk send's 10 send jobs: one round trip, not 10), a statement per
   * `rowsPerStatement` rows (SQLite's limit of bound values).
   */
  async enqueueMany(jobs: readonly NewJob[]): Promise<void> {
    for (const part of chunks(jobs, this.db.dialect.rowsPerStatement(PARAMS_PER_JOB)))
      await this.db.run(COLUMNS + part.map(() => ROW).join(', ') + CONFLICT, part.flatMap(params));
  }

  /**
   * One statement on both databases: pick (SKIP LOCKED on Postgres), lease and count the attempt, return the rows.
   * Outside a transaction it commits by itself (`Dialect.allWritten`).
   */
  async claimDue(c: JobClaim): Promise<JobSnapshot[]> {
    if (c.kinds.length === 0 || c.limit <= 0) return [];
    const holdStart = new Date(Date.parse(c.now) - c.backgroundWaitMs).toISOString();
    const pick = `SELECT id FROM jobs WHERE lane = ? AND done_at IS NULL AND due_at <= ? AND (lease_until IS NULL OR lease_until < ?)
      AND kind IN (${marks(c.kinds.length)}) AND (priority <> 'background' OR ${EARLIEST_INTERACTIVE} <= ?)
      ORDER BY due_at LIMIT ? ${this.db.dialect.skipLocked}`;
    const rows = await this.db.dialect.allWritten<Row>(
      this.db,
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

  list(f: JobFilter): Promise<JobSnapshot[]> {
    return listJobs(this.db, f);
  }

  retryNow(id: string, now: string): Promise<JobOperatorResult> {
    return retryJobNow(this.db, id, now);
  }

  cancel(id: string, now: string): Promise<JobOperatorResult> {
    return cancelJob(this.db, id, now);
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

function params(j: NewJob): Binding[] {
  return [
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
  ];
}
