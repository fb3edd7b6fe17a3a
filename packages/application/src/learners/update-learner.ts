import { DomainError, type PlatformRepos } from '@fundi/domain';
import { Learner, type LearnerInput, type LearnerRepos } from '@fundi/domain/learners';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { recordChange } from '../common/record-change.js';
import { learnerView, type LearnerView } from './learner-view.js';
import { learnerAuditChanges } from './learner-audit.js';

/** Partial update. `learner.updated` carries only the changed fields; a no-op update records nothing. */
export class UpdateLearner {
  constructor(private readonly deps: CoreDeps<LearnerRepos & PlatformRepos>) {}

  async execute(actor: Actor, id: string, input: LearnerInput): Promise<LearnerView> {
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const stored = await tx.learners.findById(actor.tenantId, id);
      if (!stored) throw DomainError.notFound('learner', id);
      const learner = Learner.fromSnapshot(stored);
      const changes = learner.update(input, now);
      const snapshot = learner.toSnapshot();
      if (changes.length === 0) return learnerView(snapshot);
      await tx.learners.update(snapshot);
      await recordChange(tx, actor, now, {
        action: 'learner.updated',
        resourceType: 'learner',
        resourceId: id,
        details: { fields: changes.map((c) => c.field) },
        ...learnerAuditChanges(changes),
        events: [
          {
            type: 'learner.updated',
            data: {
              id,
              changes: Object.fromEntries(changes.map((c) => [c.field, c.to])),
              updatedAt: snapshot.updatedAt,
            },
            subjectId: id,
          },
        ],
      });
      return learnerView(snapshot);
    });
  }
}
