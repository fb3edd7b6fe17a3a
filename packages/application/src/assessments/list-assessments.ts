import type { Page, PageRequest, PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { AssessmentFilter, TrainingRepos } from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { assessmentView, type AssessmentView } from './assessment-view.js';
import { checkRanges } from '../common/ranges.js';

export class ListAssessments {
  constructor(private readonly deps: Pick<CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos>, 'repos'>) {}

  async execute(actor: Actor, filter: AssessmentFilter, page: PageRequest): Promise<Page<AssessmentView>> {
    checkRanges(filter, [
      ['from', 'to'],
      ['updatedFrom', 'updatedTo'],
    ]);
    const result = await this.deps.repos.assessments.list(actor.tenantId, filter, page);
    return { ...result, items: result.items.map(assessmentView) };
  }
}
