import { DEFAULT_RETENTION_YEARS, type PurgeCandidate } from '@fundi/domain/evidence';
import { recordChange } from '../common/record-change.js';
import type { EvidencePorts } from './evidence-ports.js';

export const DAY_MS = 86_400_000;

/** A tenant's retention in years after an enrolment's completion (7 unless set). */
export async function retentionYearsOf(d: Pick<EvidencePorts, 'repos'>, tenantId: string): Promise<number> {
  return (await d.repos.evidenceSettings.retentionYears(tenantId)) ?? DEFAULT_RETENTION_YEARS;
}

/**
 * Removes one piece of evidence for good (after the restore period, past the tenant's retention, with an erased
 * learner; docs/api.md, "Evidence"): its bytes first, then the record, with an audit entry by the system that stays.
 */
export async function removeForGood(
  d: Pick<EvidencePorts, 'files' | 'uow'>,
  c: PurgeCandidate,
  now: Date,
  action: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  for (const key of c.storageKeys) await d.files.remove(key);
  await d.uow.run(async (tx) => {
    await tx.evidence.remove(c.tenantId, c.id);
    await recordChange(tx, { tenantId: c.tenantId, id: 'system', role: 'admin', scopes: [] }, now, {
      action,
      resourceType: 'evidence',
      resourceId: c.id,
      learnerId: c.learnerId,
      details: { versions: c.storageKeys.length, ...details },
    });
  });
}
