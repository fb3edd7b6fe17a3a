import { newId, type PlatformRepos } from '@fundi/domain';
import { Learner, type LearnerInput, type LearnerRepos } from '@fundi/domain/learners';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { recordChange } from '../common/record-change.js';
import { learnerView, type LearnerView } from './learner-view.js';

/** Registers a learner; a duplicate ID number or email within the tenant is a conflict. */
export class RegisterLearner {
  constructor(private readonly deps: CoreDeps<LearnerRepos & PlatformRepos>) {}

  async execute(actor: Actor, input: LearnerInput): Promise<LearnerView> {
    const now = this.deps.clock.now();
    const learner = Learner.register(input, { id: newId('lrn', now.getTime()), tenantId: actor.tenantId, now });
    const view = learnerView(learner.toSnapshot());
    await this.deps.uow.run(async (tx) => {
      await tx.learners.insert(learner.toSnapshot());
      await recordChange(tx, actor, now, {
        action: 'learner.created',
        resourceType: 'learner',
        resourceId: learner.id,
        events: [{ type: 'learner.created', data: view, subjectId: learner.id }],
      });
    });
    return view;
  }
}
