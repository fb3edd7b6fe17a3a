import { STATEMENT_OUTCOMES } from '@fundi/domain/statements';
import { OUTCOMES } from '@fundi/domain/training';
import { IdParams, Timestamp, z, downloadGrant } from '../schemas/common.js';

export const StatementModuleOut = z
  .object({
    code: z.string(),
    name: z.string(),
    credits: z.number().int().nullable(),
    outcome: z.enum(OUTCOMES),
    achievedOn: z.string().openapi({ format: 'date', description: 'The date of the result that counts' }),
    assessor: z.string().openapi({ description: "The assessor's email, or the key or user that recorded the result" }),
  })
  .openapi('StatementModule');

export const StatementOut = z
  .object({
    id: z.string().openapi({ example: 'sor_01jd2x9k3m4n5p6q7r8s9t0v1w' }),
    learnerId: z.string(),
    enrolmentId: z.string(),
    programmeCode: z.string(),
    programmeName: z.string(),
    outcome: z.enum(STATEMENT_OUTCOMES),
    modules: z.array(StatementModuleOut),
    status: z.enum(['issued', 'revoked']),
    verificationCode: z.string().openapi({ example: '7K2M9QX4RT8VW3N5' }),
    verifyUrl: z.string().openapi({ description: 'The public verification page (the QR code on the PDF)' }),
    sha256: z.string().openapi({ description: 'SHA-256 of the PDF as issued' }),
    size: z.number().int(),
    issuedAt: Timestamp,
    issuedBy: z.string(),
    revokedAt: Timestamp.nullable(),
    revokedBy: z.string().nullable(),
    revokeReason: z.string().nullable(),
  })
  .openapi('Statement');

export const StatementIn = z
  .object({ enrolmentId: z.string().min(1).max(64) })
  .strict()
  .openapi('StatementCreate');
export const RevokeIn = z
  .object({ reason: z.string().min(1).max(1000) })
  .strict()
  .openapi('StatementRevoke');
export const StatementParams = IdParams.extend({ statementId: z.string().min(1).max(64) });
export const CodeParams = z.object({ code: z.string().min(1).max(64).openapi({ example: '7K2M9QX4RT8VW3N5' }) });

export const StatementDownloadOut = downloadGrant('StatementDownloadUrl');

export const PublicStatementOut = z
  .object({
    status: z.enum(['valid', 'revoked']),
    holder: z.string().nullable().openapi({ description: "The learner's initials and surname; null once erased" }),
    programme: z.string().nullable(),
    outcome: z.enum(STATEMENT_OUTCOMES).nullable(),
    issuedOn: z.string().nullable(),
    revokedOn: z.string().nullable(),
  })
  .openapi('StatementVerification');

export const FileCheckOut = PublicStatementOut.extend({
  matches: z.boolean().openapi({ description: 'The file sent is, byte for byte, the PDF issued under the code' }),
}).openapi('StatementFileCheck');
