import { erasureJob, erasureJobType, onLearnerErased } from '../learners/learner-erasure.js';
import { RevokeErasedStatements } from './erased-learner-statements.js';
import { GetStatement } from './get-statement.js';
import { IssueStatement } from './issue-statement.js';
import { ListStatements } from './list-statements.js';
import { OpenStatementDownload } from './open-statement-download.js';
import { RevokeStatement } from './revoke-statement.js';
import { StatementDownloadUrl } from './statement-download-url.js';
import type { StatementPorts } from './statement-ports.js';
import { VerifyStatement } from './verify-statement.js';
import { VerifyStatementFile } from './verify-statement-file.js';

/** The job an erasure queues: the learner's statements are revoked and their files removed. */
export const REVOKE_ERASED_STATEMENTS = erasureJobType('statements.erase_learner');

/** Statements of Results (docs/api.md, "Statements of Results"). */
export function statementUseCases(p: StatementPorts) {
  return {
    issueStatement: new IssueStatement(p),
    listStatements: new ListStatements(p),
    getStatement: new GetStatement(p),
    statementDownloadUrl: new StatementDownloadUrl(p),
    openStatementDownload: new OpenStatementDownload(p),
    revokeStatement: new RevokeStatement(p),
    revokeErasedStatements: new RevokeErasedStatements(p),
    verifyStatement: new VerifyStatement(p),
    verifyStatementFile: new VerifyStatementFile(p),
  };
}

export type StatementUseCases = ReturnType<typeof statementUseCases>;

export const statementReactions = () => [onLearnerErased(REVOKE_ERASED_STATEMENTS)];
export const statementJobs = (u: StatementUseCases) => [
  erasureJob(REVOKE_ERASED_STATEMENTS, (p) => u.revokeErasedStatements.execute(p.tenantId, p.learnerId)),
];
