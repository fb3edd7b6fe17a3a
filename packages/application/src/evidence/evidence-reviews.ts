import {
  DomainError,
  EVIDENCE_RESTORE_DAYS,
  Evidence,
  type EvidenceFilter,
  type Page,
  type PageRequest,
} from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { EvidencePorts } from './evidence-ports.js';
import { evidenceView, versionView, type EvidenceVersionView, type EvidenceView } from './evidence-view.js';
import { checkRanges } from '../common/ranges.js';

const DAY_MS = 86_400_000;

/**
 * Reading and reviewing evidence of the caller's tenant (docs/api.md, "Evidence"): unknown or deleted evidence is
 * `not_found`; a review and a deletion or restore are audited, a review raises `evidence.reviewed`.
 */
export class EvidenceReviews {
  constructor(private readonly d: EvidencePorts) {}

  async get(actor: Actor, id: string): Promise<EvidenceView> {
    const e = await this.d.repos.evidence.findById(actor.tenantId, id);
    if (!e) throw DomainError.notFound('evidence', id);
    return evidenceView(e);
  }

  async list(actor: Actor, filter: EvidenceFilter, page: PageRequest): Promise<Page<EvidenceView>> {
    checkRanges(filter, [['from', 'to']]);
    const r = await this.d.repos.evidence.list(actor.tenantId, filter, page);
    return { ...r, items: r.items.map(evidenceView) };
  }

  /** The enrolments with evidence uploaded at or after `since` (ISO 8601), each once (the overview's learners at risk). */
  uploadedSince(actor: Actor, since: string): Promise<string[]> {
    return this.d.repos.evidence.enrolmentsWithUploadsSince(actor.tenantId, since);
  }

  async versions(actor: Actor, id: string): Promise<EvidenceVersionView[]> {
    const e = await this.d.repos.evidence.findById(actor.tenantId, id);
    if (!e) throw DomainError.notFound('evidence', id);
    return (await this.d.repos.evidence.versions(actor.tenantId, id)).map(versionView);
  }

  /** Reviews the current version; `evidence.reviewed` carries status, feedback and version. */
  async review(actor: Actor, id: string, input: { status?: unknown; feedback?: unknown }): Promise<EvidenceView> {
    const now = this.d.clock.now();
    const e = await this.d.repos.evidence.findById(actor.tenantId, id);
    if (!e) throw DomainError.notFound('evidence', id);
    const reviewed = Evidence.review(e, input, { by: actor.id, now });
    await this.d.uow.run(async (tx) => {
      if (!(await tx.evidence.saveReview(reviewed)))
        throw DomainError.conflict('evidence_already_reviewed', 'This version was reviewed meanwhile');
      const v = reviewed.current;
      await recordChange(tx, actor, now, {
        action: 'evidence.reviewed',
        resourceType: 'evidence',
        resourceId: id,
        details: { version: v.version, status: v.status },
        learnerId: e.learnerId,
        changes: { status: { from: e.current.status, to: v.status } },
        events: [
          {
            type: 'evidence.reviewed',
            data: {
              evidenceId: id,
              learnerId: e.learnerId,
              moduleId: e.moduleId,
              status: v.status,
              feedback: v.feedback,
              version: v.version,
            },
            subjectId: e.learnerId,
          },
        ],
      });
    });
    return evidenceView(reviewed);
  }

  /** Marks deleted (restorable for 30 days, then purged). */
  async remove(actor: Actor, id: string): Promise<void> {
    const now = this.d.clock.now();
    await this.d.uow.run(async (tx) => {
      if (!(await tx.evidence.markDeleted(actor.tenantId, id, now.toISOString())))
        throw DomainError.notFound('evidence', id);
      await recordChange(tx, actor, now, { action: 'evidence.deleted', resourceType: 'evidence', resourceId: id });
    });
  }

  /**
   * Brings deleted evidence back within the restore period. Evidence that is not deleted exists, so restoring it is
   * a conflict naming its current status, not "not found".
   */
  async restore(actor: Actor, id: string): Promise<EvidenceView> {
    const now = this.d.clock.now();
    const e = await this.d.repos.evidence.findById(actor.tenantId, id, { withDeleted: true });
    if (!e) throw DomainError.notFound('evidence', id);
    if (!e.deletedAt)
      throw DomainError.conflict(
        'evidence_not_deleted',
        `This evidence is not deleted (status ${e.current.status}); only deleted evidence can be restored`,
        [],
        { currentStatus: e.current.status, deletedAt: null },
      );
    if (now.getTime() - Date.parse(e.deletedAt) > EVIDENCE_RESTORE_DAYS * DAY_MS) {
      throw DomainError.conflict(
        'restore_period_over',
        `Deleted evidence can be restored for ${EVIDENCE_RESTORE_DAYS} days`,
      );
    }
    await this.d.uow.run(async (tx) => {
      // Restored by another request meanwhile: the same conflict as above.
      if (!(await tx.evidence.restore(actor.tenantId, id, now.toISOString())))
        throw DomainError.conflict('evidence_not_deleted', 'This evidence was restored meanwhile', [], {
          currentStatus: e.current.status,
          deletedAt: null,
        });
      await recordChange(tx, actor, now, { action: 'evidence.restored', resourceType: 'evidence', resourceId: id });
    });
    return evidenceView({ ...e, deletedAt: null, updatedAt: now.toISOString() });
  }
}
