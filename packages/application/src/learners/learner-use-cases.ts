import type { PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { OfferedHooks } from '../common/hooks.js';
import type { CoreDeps, StorageMaintenance } from '../common/ports.js';
import { EraseLearner } from './erase-learner.js';
import { ScrubAfterErasure } from './scrub-after-erasure.js';
import { GetLearner } from './get-learner.js';
import { ListLearners } from './list-learners.js';
import { LearnerNames } from './learner-names.js';
import { RegisterLearner } from './register-learner.js';
import { UpdateLearner } from './update-learner.js';

/** What the learners capability needs; erasure also runs the steps other capabilities offer (`hooks`). */
export type LearnerPorts = CoreDeps<LearnerRepos & PlatformRepos> & {
  maintenance: StorageMaintenance;
  hooks: Pick<OfferedHooks, 'learnerErasure'>;
};

/** The learners capability's use cases: add one here and give it a route. */
export function learnerUseCases(p: LearnerPorts) {
  return {
    registerLearner: new RegisterLearner(p),
    getLearner: new GetLearner(p),
    listLearners: new ListLearners(p),
    learnerNames: new LearnerNames(p),
    updateLearner: new UpdateLearner(p),
    eraseLearner: new EraseLearner(p),
    scrubAfterErasure: new ScrubAfterErasure(p),
  };
}

export type LearnerUseCases = ReturnType<typeof learnerUseCases>;
