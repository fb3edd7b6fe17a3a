import { ENROLMENT_STATUSES } from '@fundi/domain';
import { Timestamp, z } from './common.js';
import { LearnerOut } from './learner-schemas.js';
import { AssessmentOut, ModerationOut } from './assessment-schemas.js';
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
export const ErasedLearnerData = z.object({
  id: z.string(),
  erased: z.literal(true),
}).strict().openapi('ErasedLearnerData', { description: 'The learner was erased; the event\'s personal data is gone' });

export const LearnerCreatedData = LearnerOut;

export const LearnerUpdatedData = z.object({
  id: z.string(),
  changes: LearnerOut.omit({ id: true, createdAt: true, updatedAt: true }).partial().strict()
    .openapi({ description: 'Only the fields that changed, with their new values (`null` = cleared). A new ID number brings its derived dateOfBirth, gender and citizenship.' }),
  updatedAt: Timestamp,
}).strict().openapi('LearnerUpdatedData');

const Status = z.enum(ENROLMENT_STATUSES);

export const EnrolmentStatusChangedData = z.object({
  enrolmentId: z.string(),
  learnerId: z.string(),
  programmeCode: z.string(),
  from: Status,
  to: Status,
  reason: z.string().nullable(),
  effectiveDate: RealDate.openapi({ description: 'For `completed`, the achievement date' }),
}).strict().openapi('EnrolmentStatusChangedData');

export const AssessmentEventData = z.object({
  assessmentId: z.string(),
  ...AssessmentOut.pick({ learnerId: true, enrolmentId: true, moduleCode: true, outcome: true, assessmentType: true, assessmentDate: true }).shape,
}).strict().openapi('AssessmentEventData');

export const ModerationCompletedData = z.object({
  ...ModerationOut.pick({ assessmentId: true }).shape,
  ...AssessmentOut.pick({ learnerId: true, enrolmentId: true, moduleCode: true }).shape,
  ...ModerationOut.pick({ decision: true, notes: true, moderatorId: true, effectiveOutcome: true }).shape,
}).strict().openapi('ModerationCompletedData');

/** Producers of other capabilities (evidence, exports) are not built yet: their specified fields, described open. */
const planned = <T extends z.ZodRawShape>(shape: T) => z.object(shape).catchall(z.unknown());

export const PlannedEventData = {
  'evidence.uploaded': planned({ evidenceId: z.string().optional(), learnerId: z.string().optional(), moduleId: z.string().optional(), evidenceType: z.string().optional(), filename: z.string().optional(), contentType: z.string().optional(), size: z.number().int().optional() }),
  'evidence.reviewed': planned({ evidenceId: z.string().optional(), status: z.enum(['approved', 'rejected', 'revision_requested']).optional(), feedback: z.string().nullable().optional() }),
  'export.ready': planned({ exportId: z.string().optional(), downloadUrl: z.string().optional(), expiresAt: Timestamp.optional() }),
  'export.completed': planned({ exportId: z.string().optional(), downloadUrl: z.string().optional(), expiresAt: Timestamp.optional() }),
};

export const PingData = z.object({ subscriptionId: z.string(), message: z.string() }).strict();
