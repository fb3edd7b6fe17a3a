import type { StatementSnapshot } from '@fundi/domain/statements';

export const STATEMENT_ISSUED = 'statement.issued';
export const STATEMENT_REVOKED = 'statement.revoked';

/** What `statement.issued` carries: the statement, without the learner's name. */
export function issuedData(s: StatementSnapshot) {
  return {
    statementId: s.id,
    learnerId: s.learnerId,
    enrolmentId: s.enrolmentId,
    programmeCode: s.programmeCode,
    outcome: s.outcome,
    verificationCode: s.verificationCode,
    sha256: s.sha256,
    issuedAt: s.issuedAt,
  };
}

/** What `statement.revoked` carries. */
export function revokedData(s: StatementSnapshot) {
  return {
    statementId: s.id,
    learnerId: s.learnerId,
    enrolmentId: s.enrolmentId,
    programmeCode: s.programmeCode,
    reason: s.revokeReason!,
    revokedAt: s.revokedAt!,
  };
}
