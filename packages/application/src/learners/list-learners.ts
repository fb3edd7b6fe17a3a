import {
  DomainError,
  type LearnerFilter,
  type Page,
  type PageRequest,
  type LearnerRepos,
  type PlatformRepos,
} from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { learnerView, type LearnerView } from './learner-view.js';

export class ListLearners {
  constructor(private readonly deps: Pick<CoreDeps<LearnerRepos & PlatformRepos>, 'repos'>) {}

  async execute(actor: Actor, filter: LearnerFilter, page: PageRequest): Promise<Page<LearnerView>> {
    if (filter.createdFrom && filter.createdTo && filter.createdFrom > filter.createdTo) {
      throw DomainError.invalid('createdTo', 'must not be before createdFrom');
    }
    if (filter.updatedFrom && filter.updatedTo && filter.updatedFrom > filter.updatedTo) {
      throw DomainError.invalid('updatedTo', 'must not be before updatedFrom');
    }
    const result = await this.deps.repos.learners.list(actor.tenantId, filter, page);
    return { ...result, items: result.items.map(learnerView) };
  }
}
