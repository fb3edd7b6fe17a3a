import { DomainError, type PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { StatusChange, TrainingRepos } from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';

export type StatusChangeView = Omit<StatusChange, 'tenantId'>;

/** Every status change of an enrolment, oldest first, with who, when and why (the first row is the enrolment). */
export class GetEnrolmentHistory {
  constructor(private readonly deps: Pick<CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos>, 'repos'>) {}

  async execute(actor: Actor, id: string): Promise<{ enrolmentId: string; changes: StatusChangeView[] }> {
    const e = await this.deps.repos.enrolments.findById(actor.tenantId, id);
    if (!e) throw DomainError.notFound('enrolment', id);
    const rows = await this.deps.repos.enrolments.history(actor.tenantId, id);
    return { enrolmentId: id, changes: rows.map(({ tenantId: _t, ...rest }) => rest) };
  }
}
