import { DomainError, type PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { TrainingRepos } from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { recordChange } from '../common/record-change.js';
import { findProgramme } from './programme-view.js';

/** Deletes a programme no enrolment uses; once used it can only be retired (409). */
export class DeleteProgramme {
  constructor(private readonly deps: CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos>) {}

  async execute(actor: Actor, idOrCode: string): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.uow.run(async (tx) => {
      const stored = await findProgramme(tx, actor.tenantId, idOrCode);
      const used = await tx.enrolments.countForProgramme(actor.tenantId, stored.id);
      if (used > 0) {
        throw DomainError.conflict(
          'programme_in_use',
          `The programme has ${used} enrolment(s); retire it instead`,
          [],
          { enrolments: used },
        );
      }
      await tx.programmes.delete(actor.tenantId, stored.id);
      await recordChange(tx, actor, now, {
        action: 'programme.deleted',
        resourceType: 'programme',
        resourceId: stored.id,
        details: { code: stored.code },
      });
    });
  }
}
