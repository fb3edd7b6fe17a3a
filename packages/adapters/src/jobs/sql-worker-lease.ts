import type { WorkerLease } from '@fundi/domain';
import type { SqlDb } from '../db/sql-db.js';

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
