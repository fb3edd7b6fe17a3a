import type { PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { TrainingRepos } from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { findProgramme, programmeView, type ProgrammeView } from './programme-view.js';

export class GetProgramme {
  constructor(private readonly deps: Pick<CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos>, 'repos'>) {}

  /** By id, else by code; not_found for an unknown or another tenant's programme. */
  async execute(actor: Actor, idOrCode: string): Promise<ProgrammeView> {
    return programmeView(await findProgramme(this.deps.repos, actor.tenantId, idOrCode));
  }
}
