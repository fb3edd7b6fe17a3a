import type { PurgeCandidate } from '@fundi/domain/evidence';
import type { TrainingTables } from '../training/index.js';
import type { EvidenceRow, EvidenceTables } from './evidence-tables.js';

/** The evidence tables, and the training capability's enrolments when it is there (for retention). */
type Tables = EvidenceTables & Partial<Pick<TrainingTables, 'enrolments'>>;

/**
 * The evidence due to go and its removal, in memory as the SQL repository answers it: records deleted long enough
 * ago, past their retention or of an erased learner, each with its stored files' keys, and the stored keys in order.
 */

function candidate(t: Tables, r: EvidenceRow): PurgeCandidate {
  const keys = [...t.evidenceVersions.values()]
    .filter((v) => v.evidenceId === r.id)
    .sort((a, b) => a.version - b.version)
    .map((v) => v.storageKey);
  return { tenantId: r.tenantId, id: r.id, learnerId: r.learnerId, storageKeys: keys };
}

export function deletedBefore(t: Tables, before: string, limit: number): PurgeCandidate[] {
  return [...t.evidence.values()]
    .filter((r) => r.deletedAt && r.deletedAt <= before)
    .sort((a, b) => (a.deletedAt! < b.deletedAt! ? -1 : a.deletedAt! > b.deletedAt! ? 1 : 0))
    .slice(0, limit)
    .map((r) => candidate(t, r));
}

export function storageKeysAfter(t: Tables, after: string | null, limit: number): string[] {
  return [...t.evidenceVersions.values()]
    .map((v) => v.storageKey)
    .filter((k) => after === null || k > after)
    .sort()
    .slice(0, limit);
}

export function ofLearner(t: Tables, tenantId: string, learnerId: string): PurgeCandidate[] {
  return [...t.evidence.values()]
    .filter((r) => r.tenantId === tenantId && r.learnerId === learnerId)
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((r) => candidate(t, r));
}

export function pastRetention(
  t: Tables,
  tenantId: string,
  completedOnOrBefore: string,
  limit: number,
): PurgeCandidate[] {
  const enrolments = t.enrolments ?? new Map();
  return [...t.evidence.values()]
    .filter((r) => {
      const e = enrolments.get(r.enrolmentId);
      return (
        r.tenantId === tenantId &&
        e?.tenantId === tenantId &&
        e.status === 'completed' &&
        e.achievementDate !== null &&
        e.achievementDate <= completedOnOrBefore
      );
    })
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .slice(0, limit)
    .map((r) => candidate(t, r));
}

export function removeEvidence(t: Tables, tenantId: string, id: string): void {
  const r = t.evidence.get(id);
  if (!r || r.tenantId !== tenantId) return;
  t.evidence.delete(id);
  for (const [k, v] of t.evidenceVersions) if (v.evidenceId === id) t.evidenceVersions.delete(k);
}
