import type { EvidenceSnapshot, EvidenceVersionSnapshot, UploadTicketSnapshot } from '@fundi/domain/evidence';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { invalidUrl } from '../files/signed-url-errors.js';
import type { EvidencePorts, StoredFile } from './evidence-ports.js';
import { quotaExceeded, recordQuotaCrossing, tenantQuota } from './evidence-quota.js';
import { evidenceView, type EvidenceView } from './evidence-view.js';

/**
 * Commits a stored file as new evidence, a new version, or the first file of a record awaiting it (`first`:
 * stored as a version, announced like new evidence), with its event, checking the quota again.
 */
export async function commitUpload(
  d: EvidencePorts,
  actor: Actor,
  e: EvidenceSnapshot,
  mode: 'new' | 'version' | 'first',
  ip: string | null,
  ticket?: UploadTicketSnapshot,
): Promise<EvidenceView> {
  const now = d.clock.now();
  const before = await tenantQuota(d.repos, actor.tenantId);
  try {
    await d.uow.run(async (tx) => {
      if (ticket && !(await tx.uploadTickets.consume(actor.tenantId, ticket.id, now.toISOString()))) throw invalidUrl();
      const usage = await tx.evidence.usage(actor.tenantId);
      if (before.quota !== null && usage.bytes + e.current.size > before.quota) throw quotaExceeded(before.quota);
      if (mode === 'new') await tx.evidence.insert(e);
      else await tx.evidence.addVersion(e);
      await recordChange(tx, actor, now, {
        action: mode === 'version' ? 'evidence.version_uploaded' : 'evidence.uploaded',
        resourceType: 'evidence',
        resourceId: e.id,
        details: { version: e.current.version, size: e.current.size, contentType: e.current.contentType, ip },
        learnerId: e.learnerId,
        events: [
          {
            type: 'evidence.uploaded',
            data: {
              evidenceId: e.id,
              learnerId: e.learnerId,
              moduleId: e.moduleId,
              enrolmentId: e.enrolmentId,
              evidenceType: e.evidenceType,
              filename: e.current.filename,
              contentType: e.current.contentType,
              size: e.current.size,
              version: e.current.version,
            },
            subjectId: e.learnerId,
          },
        ],
      });
      if (before.quota !== null)
        await recordQuotaCrossing(tx, actor, now, usage.bytes, usage.bytes + e.current.size, before.quota);
    });
  } catch (err) {
    await d.files.remove(e.current.storageKey).catch(() => {});
    throw err;
  }
  return evidenceView(e);
}

/** The snapshot of a stored file as version `version`: a new record, or `prev` with this version current. */
export function uploadSnapshot(
  d: Pick<EvidencePorts, 'clock'>,
  actor: Actor,
  where: { learnerId: string; moduleId: string; enrolmentId: string },
  id: string,
  version: number,
  parsed: { evidenceType: EvidenceSnapshot['evidenceType']; filename: string },
  stored: StoredFile,
  key: string,
  prev?: EvidenceSnapshot,
): EvidenceSnapshot {
  const at = d.clock.now().toISOString();
  const current: EvidenceVersionSnapshot = {
    tenantId: actor.tenantId,
    evidenceId: id,
    version,
    filename: parsed.filename,
    contentType: stored.contentType,
    size: stored.size,
    sha256: stored.sha256,
    storageKey: key,
    uploadedBy: actor.id,
    createdAt: at,
    status: 'submitted',
    reviewedAt: null,
    reviewedBy: null,
    feedback: null,
  };
  if (prev) return { ...prev, updatedAt: at, current };
  return {
    id,
    tenantId: actor.tenantId,
    learnerId: where.learnerId,
    enrolmentId: where.enrolmentId,
    moduleId: where.moduleId,
    evidenceType: parsed.evidenceType,
    createdAt: at,
    updatedAt: at,
    deletedAt: null,
    description: null,
    current,
  };
}
