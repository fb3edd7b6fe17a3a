import { DomainError, type PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { TrainingRepos } from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { moderationView, type ModerationView } from './assessment-view.js';

export class GetModeration {
  constructor(private readonly deps: Pick<CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos>, 'repos'>) {}

  /** The moderation of an assessment; not_found when the assessment is unknown or not moderated yet. */
  async execute(actor: Actor, assessmentId: string): Promise<ModerationView> {
    const a = await this.deps.repos.assessments.findById(actor.tenantId, assessmentId);
    if (!a) throw DomainError.notFound('assessment', assessmentId);
    if (!a.moderation) throw DomainError.notFound('moderation', assessmentId);
    return moderationView(a, a.moderation);
  }
}
