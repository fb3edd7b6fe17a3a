import { Timestamp, z } from '../schemas/common.js';
import { EvidenceType, Id, MAX } from './evidence-schemas.js';

/**
 * What an evidence upload declares and is granted: a first file (a new record, or one an import made awaiting its
 * file), a new version, the grant's signed URL, and the fields of a multipart upload.
 */

export const UploadRequestIn = z
  .object({
    learnerId: Id,
    moduleId: z.string().max(50).openapi({ description: 'The module code' }),
    enrolmentId: Id.optional().openapi({ description: 'Picks the enrolment when several open ones have the module' }),
    evidenceType: EvidenceType,
    filename: z.string().max(255),
    contentType: z
      .string()
      .max(255)
      .optional()
      .openapi({ description: 'Informative only: the type is sniffed from the bytes' }),
    size: z
      .number()
      .int()
      .min(1)
      .max(MAX)
      .openapi({ description: 'Exact size in bytes; the PUT must send exactly this many' }),
  })
  .strict()
  .openapi('EvidenceUploadRequest');

export const VersionUploadRequestIn = z
  .object({
    filename: z.string().max(255),
    contentType: z.string().max(255).optional(),
    size: z.number().int().min(1).max(MAX),
  })
  .strict()
  .openapi('EvidenceVersionUploadRequest');

export const AwaitedUploadRequestIn = z
  .object({
    size: z
      .number()
      .int()
      .min(1)
      .max(MAX)
      .openapi({ description: 'Exact size in bytes; the PUT must send exactly this many' }),
    filename: z.string().max(255).optional().openapi({ description: "Defaults to the record's file name" }),
    contentType: z.string().max(255).optional(),
  })
  .strict()
  .openapi('EvidenceAwaitedUploadRequest');

export const UploadGrantOut = z
  .object({
    evidenceId: z.string(),
    version: z.number().int(),
    uploadUrl: z.string().openapi({ description: 'Signed, single-use; PUT the bytes here without an API key' }),
    method: z.literal('PUT'),
    expiresAt: Timestamp,
  })
  .openapi('EvidenceUploadUrl');

export const MultipartFields = z
  .object({
    learnerId: Id,
    moduleId: z.string().max(50),
    enrolmentId: Id.optional(),
    evidenceType: EvidenceType,
    filename: z.string().max(255).optional().openapi({ description: "Defaults to the file part's name" }),
  })
  .strict();

export const VersionFields = z.object({ filename: z.string().max(255).optional() }).strict();
