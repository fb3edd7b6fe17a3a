import { DomainError, type Page, type PageRequest, type PlatformRepos } from '@fundi/domain';
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
