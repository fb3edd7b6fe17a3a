import type { TrainingRepos } from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { assessmentView, type AssessmentView } from './assessment-view.js';

/** Assessments by id in the order given, in one read; ids unknown to the tenant are left out. */
export class GetAssessments {
  constructor(private readonly deps: Pick<CoreDeps<TrainingRepos>, 'repos'>) {}

  async execute(actor: Actor, ids: readonly string[]): Promise<AssessmentView[]> {
    const found = new Map(
      (await this.deps.repos.assessments.findByIds(actor.tenantId, [...new Set(ids)])).map((a) => [a.id, a]),
    );
    return ids.flatMap((id) => {
      const a = found.get(id);
      return a ? [assessmentView(a)] : [];
    });
  }
}
