import { DomainError, type PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { learnerView, type LearnerView } from './learner-view.js';

export class GetLearner {
  constructor(private readonly deps: Pick<CoreDeps<LearnerRepos & PlatformRepos>, 'repos'>) {}

  /** Throws not_found for an unknown, erased, or other tenant's learner. */
  async execute(actor: Actor, id: string): Promise<LearnerView> {
    const l = await this.deps.repos.learners.findById(actor.tenantId, id);
    if (!l) throw DomainError.notFound('learner', id);
    return learnerView(l);
  }
}
