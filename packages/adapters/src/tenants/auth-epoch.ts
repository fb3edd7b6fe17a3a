import type { SqlDb } from '../db/sql-db.js';

/**
 * Tells every process that a tenant or key changed: each keeps its authentication cache only while the epoch it read
 * is still the stored one.
 */
export async function bumpAuthEpoch(db: SqlDb): Promise<void> {
  await db.run('UPDATE auth_epoch SET epoch = epoch + 1 WHERE id = 1');
}
