import { EVIDENCE_RECORD_STATUSES, EVIDENCE_STATUSES, EVIDENCE_TYPES, REVIEW_OUTCOMES } from '@fundi/domain/evidence';
import { Instant, Timestamp, z, ActorOut, ActorOrNull, downloadGrant } from '../schemas/common.js';

/** A record's id, as the evidence schemas take it. */
export const Id = z.string().min(1).max(64);
export const EvidenceType = z
  .enum(EVIDENCE_TYPES)
  .openapi({ description: 'What the evidence is (docs/api.md, "Evidence")' });
/** The largest evidence file: 100 MB. */
export const MAX = 100 * 1024 * 1024;

export const EvidenceOut = z
  .object({
    id: z.string().openapi({ example: 'evd_01jd2x9k3m4n5p6q7r8s9t0v1w' }),
    learnerId: z.string(),
    moduleId: z.string().openapi({ description: 'The module code' }),
    enrolmentId: z.string(),
    evidenceType: EvidenceType,
    filename: z.string().openapi({ description: 'As given by the uploader (display and downloads only)' }),
    contentType: z.string().openapi({
      description: 'Sniffed from the bytes, never taken from the name or a header',
      example: 'application/pdf',
    }),
    size: z.number().int(),
    sha256: z.string().openapi({ description: "SHA-256 of the file's bytes, hex" }),
    status: z.enum(EVIDENCE_RECORD_STATUSES).openapi({
      description:
        'The review status of the current version; `awaiting_upload` for a record made without its file (version 0, size 0, `contentType` and `sha256` empty)',
    }),
    version: z
      .number()
      .int()
      .openapi({ description: 'The current (latest) version, from 1; 0 while awaiting the file' }),
    description: z.string().nullable().openapi({ description: 'As given when the record was made (imports)' }),
    uploadedBy: ActorOut,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    reviewedAt: Timestamp.nullable(),
    reviewedBy: ActorOrNull,
    feedback: z.string().nullable(),
    deletedAt: Timestamp.nullable(),
  })
  .openapi('Evidence');

export const EvidenceVersionOut = z
  .object({
    version: z.number().int(),
    filename: z.string(),
    contentType: z.string(),
    size: z.number().int(),
    sha256: z.string(),
    status: z.enum(EVIDENCE_STATUSES),
    uploadedBy: ActorOut,
    createdAt: Timestamp,
    reviewedAt: Timestamp.nullable(),
    reviewedBy: ActorOrNull,
    feedback: z.string().nullable(),
  })
  .openapi('EvidenceVersion');

export const EvidenceListQuery = z
  .object({
    learnerId: Id.optional(),
    moduleId: z.string().max(50).optional(),
    enrolmentId: Id.optional(),
    status: z.enum(EVIDENCE_RECORD_STATUSES).optional().openapi({
      description: 'Records awaiting their file are listed only with `awaiting_upload`',
    }),
    evidenceType: EvidenceType.optional(),
    from: Instant.optional().openapi({ description: 'Uploaded at or after (inclusive)' }),
    to: Instant.optional().openapi({
      description: 'Uploaded at or before (inclusive); a bare date includes that whole day',
    }),
  })
  .strict();

export const ReviewIn = z
  .object({
    status: z.enum(REVIEW_OUTCOMES),
    feedback: z
      .string()
      .max(5000)
      .nullable()
      .optional()
      .openapi({ description: 'A note for the learner; optional for every status' }),
  })
  .strict()
  .openapi('EvidenceReview');

export const DownloadGrantOut = downloadGrant('EvidenceDownloadUrl');

export const BulkDownloadIn = z
  .object({
    evidenceIds: z.array(Id).min(1).max(500),
  })
  .strict()
  .openapi('EvidenceBulkDownload');

export const BulkDownloadOut = DownloadGrantOut.extend({
  size: z.number().int().openapi({ description: 'Length of the ZIP served, in bytes (exact up to 4 GB)' }),
  count: z.number().int(),
}).openapi('EvidenceBulkDownloadUrl');

export const UsageOut = z
  .object({
    bytesUsed: z.number().int(),
    quotaBytes: z.number().int().nullable().openapi({ description: 'null = no quota (plan or override)' }),
    files: z.number().int().openapi({ description: 'Stored file versions' }),
    percentUsed: z.number().nullable(),
    requestsToday: z.number().int().openapi({
      description:
        "Authenticated requests of all the tenant's API keys since 00:00 UTC (other server processes' counts arrive within 2 s)",
    }),
  })
  .openapi('Usage');
