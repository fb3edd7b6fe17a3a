import { DomainError, type PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import { Programme, type ProgrammeInput, type TrainingRepos } from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { recordChange } from '../common/record-change.js';
import { findProgramme, programmeView, type ProgrammeView } from './programme-view.js';

/**
 * Partial update; `modules`, when given, replaces the list. Modules may be added and renamed at any time;
 * removing a module that has assessments is a conflict, since those results would lose their module.
 */
export class UpdateProgramme {
  constructor(private readonly deps: CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos>) {}

  async execute(actor: Actor, idOrCode: string, input: ProgrammeInput): Promise<ProgrammeView> {
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const stored = await findProgramme(tx, actor.tenantId, idOrCode);
      const { next, changed } = Programme.update(stored, input, now);
      if (changed.length === 0) return programmeView(stored);
      const removed = Programme.removedModules(stored, next);
      if (removed.length) {
        const assessed = new Set(await tx.assessments.assessedModules(actor.tenantId, stored.id));
        const blocked = removed.filter((c) => assessed.has(c));
        if (blocked.length) {
          throw DomainError.conflict(
            'module_has_assessments',
            `Modules with recorded assessments cannot be removed: ${blocked.join(', ')}`,
            [{ field: 'modules', message: `would remove assessed modules ${blocked.join(', ')}` }],
            { modules: blocked },
          );
        }
      }
      await tx.programmes.update(next);
      await recordChange(tx, actor, now, {
        action: 'programme.updated',
        resourceType: 'programme',
        resourceId: stored.id,
        details: { fields: changed, removedModules: removed },
      });
      return programmeView(next);
    });
  }
}
