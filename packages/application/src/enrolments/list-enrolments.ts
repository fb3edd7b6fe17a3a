import type { Page, PageRequest, PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { EnrolmentFilter, TrainingRepos } from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { enrolmentViews, type EnrolmentView } from './enrolment-view.js';
import { checkRanges } from '../common/ranges.js';

export class ListEnrolments {
  constructor(private readonly deps: Pick<CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos>, 'repos'>) {}

  async execute(actor: Actor, filter: EnrolmentFilter, page: PageRequest): Promise<Page<EnrolmentView>> {
    checkRanges(filter, [
      ['startFrom', 'startTo'],
      ['updatedFrom', 'updatedTo'],
    ]);
    const result = await this.deps.repos.enrolments.list(actor.tenantId, filter, page);
    return { ...result, items: await enrolmentViews(this.deps.repos, actor.tenantId, result.items) };
  }
}
