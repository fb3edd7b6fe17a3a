import { DomainError } from '@fundi/domain';
import { EVIDENCE_RESTORE_DAYS } from '@fundi/domain/evidence';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { EvidencePorts } from './evidence-ports.js';
import { evidenceView, type EvidenceView } from './evidence-view.js';

const DAY_MS = 86_400_000;

/**
 * Brings deleted evidence back within the restore period. Evidence that is not deleted exists, so restoring it is
 * a conflict naming its current status, not "not found".
 */
export class RestoreEvidence {
  constructor(private readonly d: EvidencePorts) {}

  async execute(actor: Actor, id: string): Promise<EvidenceView> {
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
      await recordChange(tx, actor, now, {
        action: 'evidence.restored',
        resourceType: 'evidence',
        resourceId: id,
        learnerId: e.learnerId,
      });
    });
    return evidenceView({ ...e, deletedAt: null, updatedAt: now.toISOString() });
  }
}
