import type { Page, PageRequest, PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { ProgrammeType, TrainingRepos } from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { programmeView, type ProgrammeView } from './programme-view.js';

export class ListProgrammes {
  constructor(private readonly deps: Pick<CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos>, 'repos'>) {}

  async execute(
    actor: Actor,
    filter: { status?: 'active' | 'retired'; type?: ProgrammeType },
    page: PageRequest,
  ): Promise<Page<ProgrammeView>> {
    const result = await this.deps.repos.programmes.list(actor.tenantId, filter, page);
    return { ...result, items: result.items.map(programmeView) };
  }
}
