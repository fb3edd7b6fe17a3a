import type { LearnerSnapshot } from '@fundi/domain/learners';

/** The learner being erased, as each erasure step sees it. */
export interface ErasedSubject {
  tenantId: string;
  learnerId: string;
  /** The learner as stored before the erasure (what identifies them in free text). */
  learner: LearnerSnapshot;
  /** The outbox events whose data the erasure redacted (those of which the learner is the subject). */
  events: readonly string[];
}

/**
 * What another capability adds to a learner's erasure (docs/api.md, "Erasure"): it runs in the erasure's own
 * transaction over `tx`, that transaction's repositories (the service's unit of work hands out every capability's),
 * and returns how many of its rows it redacted, recorded in the audit entry's details under `detail`. The learners
 * capability names none of them: capabilities offer their steps in their modules (`offers.learnerErasure`).
 */
export interface ErasureStep<R extends object = object> {
  detail: string;
  erase(tx: R, subject: ErasedSubject): Promise<number>;
}
