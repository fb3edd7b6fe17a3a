import type { JobQueue, JobSnapshot, WorkerLease } from '@fundi/domain';
import type { SqlDb } from '../db/sql-db.js';
import { marks, rowToJob, type Row } from './webhook-rows.js';

export class SqlJobQueue implements JobQueue {
  constructor(private readonly db: SqlDb) {}

  async enqueue(j: Pick<JobSnapshot, 'id' | 'kind' | 'payload' | 'dueAt' | 'createdAt'>): Promise<void> {
    await this.db.run('INSERT INTO jobs (id, kind, payload, due_at, attempts, created_at) VALUES (?, ?, ?, ?, 0, ?)',
      [j.id, j.kind, JSON.stringify(j.payload), j.dueAt, j.createdAt]);
  }

  async claimDue(owner: string, kinds: readonly string[], now: string, leaseUntil: string, limit: number): Promise<JobSnapshot[]> {
    if (kinds.length === 0) return [];
    const picked = await this.db.all<{ id: string }>(
      `SELECT id FROM jobs WHERE done_at IS NULL AND due_at <= ? AND (lease_until IS NULL OR lease_until < ?) AND kind IN (${marks(kinds.length)})
       ORDER BY due_at LIMIT ? ${this.db.dialect.skipLocked}`, [now, now, ...kinds, limit]);
    if (picked.length === 0) return [];
    const ids = picked.map((p) => p.id);
    await this.db.run(`UPDATE jobs SET lease_owner = ?, lease_until = ?, attempts = attempts + 1 WHERE id IN (${marks(ids.length)})`, [owner, leaseUntil, ...ids]);
    return (await this.db.all<Row>(`SELECT * FROM jobs WHERE id IN (${marks(ids.length)}) ORDER BY due_at`, ids)).map(rowToJob);
  }

  async finish(id: string, owner: string, at: string, error: string | null): Promise<void> {
    await this.db.run('UPDATE jobs SET done_at = ?, last_error = ?, lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?', [at, error, id, owner]);
  }

  async retry(id: string, owner: string, dueAt: string, error: string): Promise<void> {
    await this.db.run('UPDATE jobs SET due_at = ?, last_error = ?, lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?', [dueAt, error, id, owner]);
  }

  async release(owner: string): Promise<number> {
    return (await this.db.run('UPDATE jobs SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ? AND done_at IS NULL', [owner])).changes;
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
       WHERE worker_lease.owner = excluded.owner OR worker_lease.lease_until < ?`, [owner, until, now]);
    return changes > 0;
  }

  async release(owner: string): Promise<void> {
    await this.db.run(`DELETE FROM worker_lease WHERE name = 'main' AND owner = ?`, [owner]);
  }
}
