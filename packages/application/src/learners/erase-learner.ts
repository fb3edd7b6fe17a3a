import { DomainError } from '@fundi/domain';
import type { Actor } from '../shared/actor.js';
import type { CoreDeps } from '../shared/ports.js';
import { recordChange } from '../shared/record-change.js';

/**
 * POPIA erasure (D3): the learner's personal data is removed irreversibly and the learner is gone for the API;
 * the anonymised row stays so enrolment and assessment facts still count, and the audit entry records it.
 */
export class EraseLearner {
  constructor(private readonly deps: CoreDeps) {}

  async execute(actor: Actor, id: string): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.uow.run(async (tx) => {
      const erased = await tx.learners.erase(actor.tenantId, id, now.toISOString());
      if (!erased) throw DomainError.notFound('learner', id);
      await recordChange(tx, actor, now, { action: 'learner.erased', resourceType: 'learner', resourceId: id });
    });
  }
}
