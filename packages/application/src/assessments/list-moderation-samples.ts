import type { Page, PageRequest, PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { TrainingRepos } from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { moderationSampleView, type ModerationSampleView } from './draw-moderation-sample.js';

type Reads = Pick<CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos>, 'repos'>;

/**
 * The recorded samples in drawing order, optionally a programme's (by id or code). A programme the tenant does not
 * have lists nothing: samples are only ever drawn of existing programmes.
 */
export class ListModerationSamples {
  constructor(private readonly deps: Reads) {}

  async execute(
    actor: Actor,
    filter: { programmeId?: string; programmeCode?: string },
    page: PageRequest,
  ): Promise<Page<ModerationSampleView>> {
    let programmeId = filter.programmeId;
    if (filter.programmeCode) {
      const p = await this.deps.repos.programmes.findByCode(actor.tenantId, filter.programmeCode);
      if (!p || (programmeId && programmeId !== p.id)) return { items: [], total: 0, hasMore: false };
      programmeId = p.id;
    }
    const result = await this.deps.repos.moderationSamples.list(actor.tenantId, { programmeId }, page);
    return { ...result, items: result.items.map(moderationSampleView) };
  }
}
