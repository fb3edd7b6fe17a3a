import type { PlatformRepos } from '@fundi/domain';
import type { ErasureStep } from '../learners/erasure-steps.js';

/**
 * The audit trail's part of an erasure: the personal values in the learner's audit entries go; the entries, their
 * facts and their hash chain stay (docs/api.md, "Audit trail").
 */
export const auditErasureStep: ErasureStep<Pick<PlatformRepos, 'audit'>> = {
  detail: 'erasedAuditValues',
  erase: (tx, s) => tx.audit.forgetLearner(s.tenantId, s.learnerId),
};
