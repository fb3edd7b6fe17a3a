import { DomainError, type PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { TrainingRepos } from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { assessmentView, type AssessmentView } from './assessment-view.js';

export class GetAssessment {
  constructor(private readonly deps: Pick<CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos>, 'repos'>) {}

  /** not_found for an unknown or another tenant's assessment. */
  async execute(actor: Actor, id: string): Promise<AssessmentView> {
    const a = await this.deps.repos.assessments.findById(actor.tenantId, id);
    if (!a) throw DomainError.notFound('assessment', id);
    return assessmentView(a);
  }
}
