import { STATEMENT_OUTCOMES } from '@fundi/domain/statements';
import type { EventDocs } from '../openapi/event-doc.js';
import { Timestamp, z } from '../schemas/common.js';

export const StatementIssuedData = z
  .object({
    statementId: z.string(),
    learnerId: z.string(),
    enrolmentId: z.string(),
    programmeCode: z.string(),
    outcome: z.enum(STATEMENT_OUTCOMES),
    verificationCode: z.string(),
    sha256: z.string().openapi({ description: 'SHA-256 of the PDF as issued' }),
    issuedAt: Timestamp,
  })
  .strict()
  .openapi('StatementIssuedData');

export const StatementRevokedData = z
  .object({
    statementId: z.string(),
    learnerId: z.string(),
    enrolmentId: z.string(),
    programmeCode: z.string(),
    reason: z.string().openapi({ description: 'As the admin gave it, or `learner_erased`' }),
    revokedAt: Timestamp,
  })
  .strict()
  .openapi('StatementRevokedData');

/** The statements capability's events (docs/api.md, "Events and webhooks"). */
export const statementEvents = {
  'statement.issued': {
    summary: 'A Statement of Results is issued',
    description: 'Written by `POST /learners/{id}/statements` (docs/api.md, "Statements of Results").',
    data: StatementIssuedData,
  },
  'statement.revoked': {
    summary: 'A Statement of Results is revoked, by an admin or because its learner was erased',
    data: StatementRevokedData,
  },
} satisfies EventDocs;
