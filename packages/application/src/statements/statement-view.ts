import type { StatementModule, StatementOutcome, StatementSnapshot } from '@fundi/domain/statements';

/** A statement as the API shows it. */
export interface StatementView {
  id: string;
  learnerId: string;
  enrolmentId: string;
  programmeCode: string;
  programmeName: string;
  outcome: StatementOutcome;
  modules: StatementModule[];
  status: 'issued' | 'revoked';
  verificationCode: string;
  verifyUrl: string;
  sha256: string;
  size: number;
  issuedAt: string;
  issuedBy: string;
  revokedAt: string | null;
  revokedBy: string | null;
  revokeReason: string | null;
}

export const verifyUrlOf = (base: string, code: string) => `${base.replace(/\/+$/, '')}/verify/${code}`;

export function statementView(s: StatementSnapshot, base: string): StatementView {
  return {
    id: s.id,
    learnerId: s.learnerId,
    enrolmentId: s.enrolmentId,
    programmeCode: s.programmeCode,
    programmeName: s.programmeName,
    outcome: s.outcome,
    modules: s.modules,
    status: s.revokedAt ? 'revoked' : 'issued',
    verificationCode: s.verificationCode,
    verifyUrl: verifyUrlOf(base, s.verificationCode),
    sha256: s.sha256,
    size: s.size,
    issuedAt: s.issuedAt,
    issuedBy: s.issuedBy,
    revokedAt: s.revokedAt,
    revokedBy: s.revokedBy,
    revokeReason: s.revokeReason,
  };
}

/** What the public verification page shows: nothing personal beyond initials and surname. */
export interface PublicStatementView {
  status: 'valid' | 'revoked';
  /** Initials and surname; null once the learner is erased. */
  holder: string | null;
  programme: string | null;
  outcome: StatementOutcome | null;
  issuedOn: string | null;
  revokedOn: string | null;
}

export function publicView(s: StatementSnapshot, learnerErased: boolean): PublicStatementView {
  if (learnerErased || s.holder === null)
    return {
      status: 'revoked',
      holder: null,
      programme: null,
      outcome: null,
      issuedOn: null,
      revokedOn: s.revokedAt?.slice(0, 10) ?? null,
    };
  return {
    status: s.revokedAt ? 'revoked' : 'valid',
    holder: s.holder,
    programme: s.programmeName,
    outcome: s.outcome,
    issuedOn: s.issuedAt.slice(0, 10),
    revokedOn: s.revokedAt?.slice(0, 10) ?? null,
  };
}
