import type { LearnerSnapshot } from '@fundi/domain';

export type LearnerView = Omit<LearnerSnapshot, 'tenantId'>;

/** The learner as callers and subscribers see it: everything but the tenant id, identity fields first. */
export function learnerView(l: LearnerSnapshot): LearnerView {
  const { tenantId: _t, id, firstName, lastName, idNumber, dateOfBirth, gender, citizenship, ...rest } = l;
  return { id, firstName, lastName, idNumber, dateOfBirth, gender, citizenship, ...rest };
}
