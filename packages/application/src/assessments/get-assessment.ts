import { DomainError, type TrainingRepos, type LearnerRepos, type PlatformRepos } from '@fundi/domain';
import type { Actor } from '../shared/actor.js';
import type { CoreDeps } from '../shared/ports.js';
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
