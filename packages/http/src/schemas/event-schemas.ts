import { ENROLMENT_STATUSES, EVIDENCE_TYPES, EXPORT_TYPES, IMPORT_TYPES, REVIEW_OUTCOMES } from '@fundi/domain';
import { Timestamp, z } from './common.js';
import { LearnerOut } from './learner-schemas.js';
import { AssessmentOut, ModerationOut, ModerationSampleOut } from './assessment-schemas.js';
import { RealDate } from './training-common.js';

/**
 * The `data` of each event exactly as its producer (packages/application) writes it, built from the response
 * schemas so a field is described once. The objects are closed here; the webhook conformance test parses real
 * deliveries with them, so a producer that adds or drops a field fails it until this file follows.
 */
/**
 * What a learner event carries once its learner was erased (POPIA): a retry or replay after the DELETE sends
 * this in place of the personal data that was in the event.
 */
export const ErasedLearnerData = z
  .object({
    id: z.string(),
    erased: z.literal(true),
  })
  .strict()
  .openapi('ErasedLearnerData', { description: "The learner was erased; the event's personal data is gone" });

/** Marks an event an import wrote (docs/api.md, "Imports"), and one that told nobody (`options.notify: none`). */
const ImportMarks = {
  source: z
    .enum(['import'])
    .optional()
    .openapi({ description: 'Present when a CSV import wrote the record (absent when the API did)' }),
};

export const LearnerCreatedData = LearnerOut.extend(ImportMarks).openapi('LearnerCreatedData');

export const LearnerUpdatedData = z
  .object({
    id: z.string(),
    changes: LearnerOut.omit({ id: true, createdAt: true, updatedAt: true }).partial().strict().openapi({
      description:
        'Only the fields that changed, with their new values (`null` = cleared). A new ID number brings its derived dateOfBirth, gender and citizenship.',
    }),
    updatedAt: Timestamp,
  })
  .strict()
  .openapi('LearnerUpdatedData');

const Status = z.enum(ENROLMENT_STATUSES);

export const EnrolmentStatusChangedData = z
  .object({
    enrolmentId: z.string(),
    learnerId: z.string(),
    programmeCode: z.string(),
    from: Status,
    to: Status,
    reason: z.string().nullable(),
    effectiveDate: RealDate.openapi({ description: 'For `completed`, the achievement date' }),
  })
  .strict()
  .openapi('EnrolmentStatusChangedData');

export const AssessmentEventData = z
  .object({
    assessmentId: z.string(),
    ...AssessmentOut.pick({
      learnerId: true,
      enrolmentId: true,
      moduleCode: true,
      outcome: true,
      assessmentType: true,
      assessmentDate: true,
    }).shape,
    ...ImportMarks,
    notify: z.enum(['none']).optional().openapi({
      description:
        'Present on an imported assessment that messaged nobody: imported as history (`options.notify: none`), or dated more than 30 days before its import',
    }),
  })
  .strict()
  .openapi('AssessmentEventData');

export const ModerationCompletedData = z
  .object({
    ...ModerationOut.pick({ assessmentId: true }).shape,
    ...AssessmentOut.pick({ learnerId: true, enrolmentId: true, moduleCode: true }).shape,
    ...ModerationOut.pick({
      decision: true,
      notes: true,
      moderatorEmail: true,
      moderatedBy: true,
      effectiveOutcome: true,
    }).shape,
  })
  .strict()
  .openapi('ModerationCompletedData');

export const ModerationSampleDrawnData = z
  .object({
    sampleId: ModerationSampleOut.shape.id,
    ...ModerationSampleOut.pick({
      programmeId: true,
      programmeCode: true,
      from: true,
      to: true,
      percent: true,
      population: true,
      dueBy: true,
      drawnBy: true,
    }).shape,
    count: z.number().int().openapi({ description: 'How many assessments the sample holds' }),
  })
  .strict()
  .openapi('ModerationSampleDrawnData');

export const ExportReadyData = z
  .object({
    exportId: z.string(),
    type: z.enum(EXPORT_TYPES),
    format: z.enum(['csv', 'zip', 'txt']),
    fileName: z.string(),
    rowCount: z.number().int(),
    size: z.number().int(),
    downloadUrl: z.string().openapi({
      description:
        'Signed and absolute (under FUNDI_PUBLIC_URL, else the origin the export was requested at); lives 3600 s; GET /exports/{id}/download gives a fresh one',
    }),
    expiresAt: Timestamp.openapi({ description: 'When the download URL expires' }),
  })
  .strict()
  .openapi('ExportReadyData');

export const EvidenceUploadedData = z
  .object({
    evidenceId: z.string(),
    learnerId: z.string(),
    moduleId: z.string(),
    enrolmentId: z.string(),
    evidenceType: z.enum(EVIDENCE_TYPES),
    filename: z.string(),
    contentType: z.string(),
    size: z.number().int(),
    version: z.number().int(),
  })
  .strict()
  .openapi('EvidenceUploadedData');

export const EvidenceReviewedData = z
  .object({
    evidenceId: z.string(),
    learnerId: z.string(),
    moduleId: z.string(),
    status: z.enum(REVIEW_OUTCOMES),
    feedback: z.string().nullable(),
    version: z.number().int(),
  })
  .strict()
  .openapi('EvidenceReviewedData');

export const PingData = z.object({ subscriptionId: z.string(), message: z.string() }).strict();

export const ImportCompletedData = z
  .object({
    importId: z.string(),
    type: z.enum(IMPORT_TYPES),
    fileName: z.string(),
    totalRows: z.number().int(),
    importedRows: z.number().int(),
    invalidRows: z.number().int(),
    errorCount: z.number().int(),
    completedAt: Timestamp,
  })
  .strict()
  .openapi('ImportCompletedData');
