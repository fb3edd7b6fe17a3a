import {
  DomainError,
  type AssessmentFilter,
  type Page,
  type PageRequest,
  type TrainingRepos,
  type LearnerRepos,
  type PlatformRepos,
} from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { assessmentView, type AssessmentView } from './assessment-view.js';

export class ListAssessments {
  constructor(private readonly deps: Pick<CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos>, 'repos'>) {}

  async execute(actor: Actor, filter: AssessmentFilter, page: PageRequest): Promise<Page<AssessmentView>> {
    if (filter.from && filter.to && filter.from > filter.to) throw DomainError.invalid('to', 'must not be before from');
    if (filter.updatedFrom && filter.updatedTo && filter.updatedFrom > filter.updatedTo)
      throw DomainError.invalid('updatedTo', 'must not be before updatedFrom');
    const result = await this.deps.repos.assessments.list(actor.tenantId, filter, page);
    return { ...result, items: result.items.map(assessmentView) };
  }
}
