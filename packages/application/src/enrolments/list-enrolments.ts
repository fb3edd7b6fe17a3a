import {
  DomainError,
  type EnrolmentFilter,
  type Page,
  type PageRequest,
  type TrainingRepos,
  type LearnerRepos,
  type PlatformRepos,
} from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { enrolmentViews, type EnrolmentView } from './enrolment-view.js';

export class ListEnrolments {
  constructor(private readonly deps: Pick<CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos>, 'repos'>) {}

  async execute(actor: Actor, filter: EnrolmentFilter, page: PageRequest): Promise<Page<EnrolmentView>> {
    if (filter.startFrom && filter.startTo && filter.startFrom > filter.startTo)
      throw DomainError.invalid('startTo', 'must not be before startFrom');
    if (filter.updatedFrom && filter.updatedTo && filter.updatedFrom > filter.updatedTo)
      throw DomainError.invalid('updatedTo', 'must not be before updatedFrom');
    const result = await this.deps.repos.enrolments.list(actor.tenantId, filter, page);
    return { ...result, items: await enrolmentViews(this.deps.repos, actor.tenantId, result.items) };
  }
}
