import { newId, type PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import { Programme, type ProgrammeInput, type TrainingRepos } from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { recordChange } from '../common/record-change.js';
import { programmeView, type ProgrammeView } from './programme-view.js';

/** Adds a programme to the tenant's catalogue; a code the tenant already has is a conflict. */
export class CreateProgramme {
  constructor(private readonly deps: CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos>) {}

  async execute(actor: Actor, input: ProgrammeInput): Promise<ProgrammeView> {
    const now = this.deps.clock.now();
    const programme = Programme.create(input, { id: newId('prg'), tenantId: actor.tenantId, now });
    await this.deps.uow.run(async (tx) => {
      await tx.programmes.insert(programme);
      await recordChange(tx, actor, now, {
        action: 'programme.created',
        resourceType: 'programme',
        resourceId: programme.id,
        details: { code: programme.code },
      });
    });
    return programmeView(programme);
  }
}
