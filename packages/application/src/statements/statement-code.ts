import { DomainError } from '@fundi/domain';
import { normaliseVerificationCode, type StatementSnapshot } from '@fundi/domain/statements';
import type { StatementPorts } from './statement-ports.js';
import { publicView, type PublicStatementView } from './statement-view.js';

/** Largest file `POST /verify/{code}` reads: a statement is a few kilobytes. */
export const VERIFY_MAX_BYTES = 5 * 1024 * 1024;

const unknownCode = () =>
  new DomainError('not_found', 'statement_not_found', 'No statement has this verification code');

export type VerificationPorts = Pick<StatementPorts, 'repos'>;

/** The statement of a verification code; under Form B's prefix (`tenantSlug`) only the tenant's own. */
export async function statementOfCode(
  d: VerificationPorts,
  raw: string,
  tenantSlug: string | null,
): Promise<StatementSnapshot> {
  const code = normaliseVerificationCode(raw);
  const s = code ? await d.repos.statements.findByCode(code) : null;
  if (!s) throw unknownCode();
  if (tenantSlug !== null && (await d.repos.tenants.findById(s.tenantId))?.slug !== tenantSlug) throw unknownCode();
  return s;
}

/** What the public sees of a statement: valid or revoked, the holder's initials and surname, programme, outcome. */
export async function publicStatement(d: VerificationPorts, s: StatementSnapshot): Promise<PublicStatementView> {
  const erased = !(await d.repos.learners.findById(s.tenantId, s.learnerId));
  return publicView(s, erased);
}
