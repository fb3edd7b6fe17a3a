import { DomainError, type PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { TrainingRepos } from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { enrolmentViews, type EnrolmentView } from './enrolment-view.js';

export class GetEnrolment {
  constructor(private readonly deps: Pick<CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos>, 'repos'>) {}

  /** The enrolment with its progress; not_found for an unknown or another tenant's enrolment. */
  async execute(actor: Actor, id: string): Promise<EnrolmentView> {
    const e = await this.deps.repos.enrolments.findById(actor.tenantId, id);
    if (!e) throw DomainError.notFound('enrolment', id);
    const [view] = await enrolmentViews(this.deps.repos, actor.tenantId, [e]);
    return view!;
  }
}
