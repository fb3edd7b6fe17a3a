import type { PurgeCandidate } from '@fundi/domain/evidence';
import type { SqlDb } from '../db/sql-db.js';
import type { Row } from './evidence-rows.js';

/**
 * The evidence due to go and its removal: records deleted long enough ago, past their retention or of an erased
 * learner, each with the keys of its stored files, and the stored keys the file sweep compares with the store.
 */

async function candidates(db: SqlDb, rows: Row[]): Promise<PurgeCandidate[]> {
  const out: PurgeCandidate[] = [];
  for (const r of rows) {
    const keys = await db.all<{ storage_key: string }>(
      'SELECT storage_key FROM evidence_versions WHERE evidence_id = ? ORDER BY version',
      [r.id as string],
    );
    out.push({
      tenantId: r.tenant_id as string,
      id: r.id as string,
      learnerId: r.learner_id as string,
      storageKeys: keys.map((k) => k.storage_key),
    });
  }
  return out;
}

export async function deletedBefore(db: SqlDb, before: string, limit: number): Promise<PurgeCandidate[]> {
  const rows = await db.all<Row>(
    'SELECT id, tenant_id, learner_id FROM evidence WHERE deleted_at IS NOT NULL AND deleted_at <= ? ORDER BY deleted_at, id LIMIT ?',
    [before, limit],
  );
  return candidates(db, rows);
}

export async function storageKeysAfter(db: SqlDb, after: string | null, limit: number): Promise<string[]> {
  const rows = await db.all<{ storage_key: string }>(
    after === null
      ? 'SELECT storage_key FROM evidence_versions ORDER BY storage_key LIMIT ?'
      : 'SELECT storage_key FROM evidence_versions WHERE storage_key > ? ORDER BY storage_key LIMIT ?',
    after === null ? [limit] : [after, limit],
  );
  return rows.map((r) => r.storage_key);
}

export async function ofLearner(db: SqlDb, tenantId: string, learnerId: string): Promise<PurgeCandidate[]> {
  return candidates(
    db,
    await db.all<Row>(
      'SELECT id, tenant_id, learner_id FROM evidence WHERE tenant_id = ? AND learner_id = ? ORDER BY id',
      [tenantId, learnerId],
    ),
  );
}

export async function pastRetention(
  db: SqlDb,
  tenantId: string,
  completedOnOrBefore: string,
  limit: number,
): Promise<PurgeCandidate[]> {
  return candidates(
    db,
    await db.all<Row>(
      `SELECT e.id, e.tenant_id, e.learner_id FROM evidence e JOIN enrolments n ON n.id = e.enrolment_id AND n.tenant_id = e.tenant_id
       WHERE e.tenant_id = ? AND n.status = 'completed' AND n.achievement_date <= ? ORDER BY e.id LIMIT ?`,
      [tenantId, completedOnOrBefore, limit],
    ),
  );
}

export async function removeEvidence(db: SqlDb, tenantId: string, id: string): Promise<void> {
  await db.run('DELETE FROM evidence_versions WHERE tenant_id = ? AND evidence_id = ?', [tenantId, id]);
  await db.run('DELETE FROM evidence WHERE tenant_id = ? AND id = ?', [tenantId, id]);
}
