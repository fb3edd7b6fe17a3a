import { DomainError } from '@fundi/domain';
import { Evidence } from '@fundi/domain/evidence';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { EvidencePorts } from './evidence-ports.js';
import { evidenceView, type EvidenceView } from './evidence-view.js';

/** Reviews the current version; `evidence.reviewed` carries status, feedback and version. */
export class ReviewEvidence {
  constructor(private readonly d: EvidencePorts) {}

  async execute(actor: Actor, id: string, input: { status?: unknown; feedback?: unknown }): Promise<EvidenceView> {
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
}
