import type { LearnerRepos } from '@fundi/domain/learners';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';

/** How a page names a learner in place of an id: the name and the ID number (or alternative ID). */
export interface LearnerName {
  name: string;
  idNumber: string | null;
}

/**
 * The names of the tenant's learners among `ids`, in one read, for lists that hold learner ids (enrolments, the
 * evidence queue, imports). Erased and unknown learners are absent from the map.
 */
export class LearnerNames {
  constructor(private readonly deps: Pick<CoreDeps<LearnerRepos>, 'repos'>) {}

  async execute(actor: Actor, ids: readonly string[]): Promise<Map<string, LearnerName>> {
    const unique = [...new Set(ids)];
    const found = unique.length ? await this.deps.repos.learners.findByIds(actor.tenantId, unique) : [];
    return new Map(
      found.map((l) => [l.id, { name: `${l.firstName} ${l.lastName}`, idNumber: l.idNumber ?? l.alternateId }]),
    );
  }
}
