import { DomainError, type PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { TrainingRepos } from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { moderationSampleView, type ModerationSampleView } from './draw-moderation-sample.js';

type Reads = Pick<CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos>, 'repos'>;

/** A recorded moderation sample; not_found when the tenant has none with the id. */
export class GetModerationSample {
  constructor(private readonly deps: Reads) {}

  async execute(actor: Actor, id: string): Promise<ModerationSampleView> {
    const s = await this.deps.repos.moderationSamples.findById(actor.tenantId, id);
    if (!s) throw DomainError.notFound('moderation_sample', id);
    return moderationSampleView(s);
  }
}
