import type { Page, PageRequest, PlatformRepos } from '@fundi/domain';
import type { LearnerFilter, LearnerRepos } from '@fundi/domain/learners';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { learnerView, type LearnerView } from './learner-view.js';
import { checkRanges } from '../common/ranges.js';

export class ListLearners {
  constructor(private readonly deps: Pick<CoreDeps<LearnerRepos & PlatformRepos>, 'repos'>) {}

  async execute(actor: Actor, filter: LearnerFilter, page: PageRequest): Promise<Page<LearnerView>> {
    checkRanges(filter, [
      ['createdFrom', 'createdTo'],
      ['updatedFrom', 'updatedTo'],
    ]);
    const result = await this.deps.repos.learners.list(actor.tenantId, filter, page);
    return { ...result, items: result.items.map(learnerView) };
  }
}
