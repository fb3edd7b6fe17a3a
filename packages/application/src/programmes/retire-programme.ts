import type { PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import { Programme, type TrainingRepos } from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { recordChange } from '../common/record-change.js';
import { findProgramme, programmeView, type ProgrammeView } from './programme-view.js';

/** Retires a programme: it takes no new enrolments but still shows. Retiring a retired one changes nothing. */
export class RetireProgramme {
  constructor(private readonly deps: CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos>) {}

  async execute(actor: Actor, idOrCode: string): Promise<ProgrammeView> {
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const stored = await findProgramme(tx, actor.tenantId, idOrCode);
      if (stored.status === 'retired') return programmeView(stored);
      const retired = Programme.retire(stored, now);
      await tx.programmes.update(retired);
      await recordChange(tx, actor, now, {
        action: 'programme.retired',
        resourceType: 'programme',
        resourceId: stored.id,
      });
      return programmeView(retired);
    });
  }
}
