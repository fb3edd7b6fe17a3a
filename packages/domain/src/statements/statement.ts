import { randomBytes } from 'node:crypto';
import type { Page, PageRequest } from '../common/paging.js';
import type { Outcome } from '../training/assessment.js';

/** What a Statement of Results says of the enrolment as a whole. */
export const STATEMENT_OUTCOMES = ['completed', 'competent', 'not_yet_competent'] as const;
export type StatementOutcome = (typeof STATEMENT_OUTCOMES)[number];

/** One module as the statement lists it. */
export interface StatementModule {
  code: string;
  name: string;
  credits: number | null;
  outcome: Outcome;
  /** The date of the result that counts. */
  achievedOn: string;
  /** The assessor's email, or the id of the key or user that recorded the result. */
  assessor: string;
}

/** A Statement of Results as kept (docs/api.md, "Statements of Results"). */
export interface StatementSnapshot {
  id: string;
  tenantId: string;
  learnerId: string;
  enrolmentId: string;
  programmeCode: string;
  programmeName: string;
  outcome: StatementOutcome;
  modules: StatementModule[];
  /** The public verification code (`/verify/{code}`). */
  verificationCode: string;
  /** SHA-256 (hex) of the PDF as issued. */
  sha256: string;
  size: number;
  storageKey: string;
  /** What the public page shows of the learner: initials and surname; null once the learner is erased. */
  holder: string | null;
  issuedAt: string;
  issuedBy: string;
  revokedAt: string | null;
  revokedBy: string | null;
  revokeReason: string | null;
}

export interface StatementRepository {
  insert(s: StatementSnapshot): Promise<void>;
  findById(tenantId: string, id: string): Promise<StatementSnapshot | null>;
  /** Any tenant's statement by its verification code (the public page). */
  findByCode(code: string): Promise<StatementSnapshot | null>;
  /** Newest first. */
  listForLearner(tenantId: string, learnerId: string, page: PageRequest): Promise<Page<StatementSnapshot>>;
  /** Revokes an issued statement; false when it was already revoked (or is not there). */
  revoke(tenantId: string, id: string, r: { at: string; by: string; reason: string }): Promise<boolean>;
  /** Revokes the learner's issued statements and empties what the public page shows of them; answers their ids. */
  revokeForErasedLearner(tenantId: string, learnerId: string, at: string): Promise<string[]>;
}

export type StatementRepos = { statements: StatementRepository };

const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A random verification code: 16 characters of Crockford's base32 (80 bits), easy to type from paper. */
export function newVerificationCode(): string {
  const bytes = randomBytes(16);
  let out = '';
  for (const b of bytes) out += CODE_ALPHABET[b & 31];
  return out;
}

/** A code as typed: upper case, without spaces or dashes; null when it cannot be one. */
export function normaliseVerificationCode(raw: string): string | null {
  const c = raw.toUpperCase().replace(/[\s-]/g, '');
  return /^[0-9A-HJKMNP-TV-Z]{16}$/.test(c) ? c : null;
}

/** "T. M. Nkosi": the initials of the first names and the surname, all the public page shows of a learner. */
export function holderOf(firstName: string | null, lastName: string | null): string {
  const initials = (firstName ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((n) => `${n[0]!.toUpperCase()}.`)
    .join(' ');
  return [initials, lastName ?? ''].filter(Boolean).join(' ');
}
