import { erasureJob, erasureJobType, onLearnerErased } from '../learners/learner-erasure.js';
import { StatementService } from './statement-service.js';
import type { StatementPorts } from './statement-ports.js';
import { StatementVerification } from './statement-verification.js';

/** The job an erasure queues: the learner's statements are revoked and their files removed. */
export const REVOKE_ERASED_STATEMENTS = erasureJobType('statements.erase_learner');

/** Statements of Results (docs/api.md, "Statements of Results"). */
export function statementUseCases(p: StatementPorts) {
  return { statements: new StatementService(p), verification: new StatementVerification(p) };
}

export type StatementUseCases = ReturnType<typeof statementUseCases>;

export const statementReactions = () => [onLearnerErased(REVOKE_ERASED_STATEMENTS)];
export const statementJobs = (u: StatementUseCases) => [
  erasureJob(REVOKE_ERASED_STATEMENTS, (p) => u.statements.revokeForErasedLearner(p.tenantId, p.learnerId)),
];
