import {
  newJobSnapshot,
  type JobLane,
  type JobProgress,
  type JobQueue,
  type JobSnapshot,
  type NewJob,
  type WorkerLease,
} from '@fundi/domain';
import { marks, str, type Row } from '../db/sql-helpers.js';
import type { SqlDb } from '../db/sql-db.js';

const INSERT = `INSERT INTO jobs (id, kind, lane, payload, due_at, attempts, max_attempts, idempotency_key, created_at)
  VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING`;
const HELD = 'id = ? AND lease_owner = ? AND done_at IS NULL';

export class SqlJobQueue implements JobQueue {
  constructor(private readonly db: SqlDb) {}

  async enqueue(j: NewJob): Promise<JobSnapshot> {
    const { changes } = await this.db.run(INSERT, [
      j.id,
      j.kind,
      j.lane,
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
  async claimDue(
    owner: string,
    lane: JobLane,
    kinds: readonly string[],
    now: string,
    leaseUntil: string,
    limit: number,
  ): Promise<JobSnapshot[]> {
    if (kinds.length === 0 || limit <= 0) return [];
    const pick = `SELECT id FROM jobs WHERE lane = ? AND done_at IS NULL AND due_at <= ? AND (lease_until IS NULL OR lease_until < ?)
      AND kind IN (${marks(kinds.length)}) ORDER BY due_at LIMIT ? ${this.db.dialect.skipLocked}`;
    // Postgres: `id = ANY(ARRAY(...))` is a primary-key probe whatever the statistics (an `IN` semi-join may be
    // planned as a scan of every job on a young table).
    const picked = this.db.dialect.name === 'postgres' ? `id = ANY(ARRAY(${pick}))` : `id IN (${pick})`;
    const rows = await this.db.all<Row>(
      `UPDATE jobs SET lease_owner = ?, lease_until = ?, attempts = attempts + 1 WHERE ${picked} RETURNING *`,
      [owner, leaseUntil, lane, now, now, ...kinds, limit],
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
