import type { HrSyncRepos } from '@fundi/domain/hr-sync';
import type { ErasureStep } from '../learners/erasure-steps.js';

/** HR sync's part of an erasure: the inbound log keeps what HR sent about the employee; it goes too. */
export const hrErasureStep: ErasureStep<Pick<HrSyncRepos, 'hrEvents'>> = {
  detail: 'redactedHrEvents',
  erase: (tx, s) => tx.hrEvents.redactLearner(s.tenantId, s.learnerId),
};
