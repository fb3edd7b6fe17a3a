import type { LearnerSnapshot } from '@fundi/domain';

export type LearnerView = Omit<LearnerSnapshot, 'tenantId'>;

/** The learner as callers and subscribers see it: everything but the tenant id. */
export function learnerView(l: LearnerSnapshot): LearnerView {
  const { tenantId: _t, ...rest } = l;
  return rest;
}
