import { DomainError } from '@fundi/domain';
import type { StatementSnapshot } from '@fundi/domain/statements';

/** The purpose a statement's signed download token is signed for. */
export const STATEMENT_DOWNLOAD = 'statement-download';

/** 409: a revoked statement's file is not served. */
export const revokedFile = () =>
  DomainError.conflict('statement_revoked', 'The statement is revoked; its file is not served');

/** The name a statement's PDF is downloaded under. */
export const statementFileName = (s: StatementSnapshot) =>
  `statement-of-results-${s.programmeCode}-${s.issuedAt.slice(0, 10)}.pdf`;
