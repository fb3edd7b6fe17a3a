import { DomainError } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { EvidencePorts } from './evidence-ports.js';

/** Marks deleted (restorable for 30 days, then purged). */
export class DeleteEvidence {
  constructor(private readonly d: EvidencePorts) {}

  async execute(actor: Actor, id: string): Promise<void> {
    const now = this.d.clock.now();
    await this.d.uow.run(async (tx) => {
      const e = await tx.evidence.findById(actor.tenantId, id);
      if (!e || !(await tx.evidence.markDeleted(actor.tenantId, id, now.toISOString())))
        throw DomainError.notFound('evidence', id);
      await recordChange(tx, actor, now, {
        action: 'evidence.deleted',
        resourceType: 'evidence',
        resourceId: id,
        learnerId: e.learnerId,
      });
    });
  }
}
