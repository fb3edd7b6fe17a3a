import { ASSESSMENT_TYPES, MODERATION_DECISIONS, OUTCOMES } from '@fundi/domain/training';
import { Timestamp, ActorOut, Instant } from '../schemas/common.js';
import { Code, RealDate, z } from './training-common.js';

const Email = z.string().max(254).openapi({ format: 'email', example: 'assessor@provider.co.za' });

export const AssessmentCreate = z
  .object({
    learnerId: z.string().max(64).openapi({ example: 'lrn_01jd2x9k3m4n5p6q7r8s9t0v1w' }),
    moduleCode: Code,
    assessmentType: z.enum(ASSESSMENT_TYPES),
    outcome: z.enum(OUTCOMES).openapi({ description: 'C = competent, NYC = not yet competent' }),
    assessmentDate: RealDate.openapi({ description: 'Not in the future, not before the enrolment start' }),
    assessorEmail: Email.nullable()
      .optional()
      .openapi({ description: 'Assessor email; when absent the recording API key is the assessor' }),
    assessorId: Email.nullable()
      .optional()
      .openapi({ description: 'The older name of `assessorEmail` (an email too), still accepted' }),
    enrolmentId: z
      .string()
      .max(64)
      .optional()
      .openapi({ description: 'Picks the enrolment when the learner has several open ones with this module' }),
  })
  .strict()
  .openapi('AssessmentCreate');

export const ModerationIn = z
  .object({
    decision: z.enum(MODERATION_DECISIONS),
    notes: z.string().max(4000),
    moderatorEmail: Email.optional().openapi({ description: 'Moderator email; must differ from the assessor email' }),
    moderatorId: Email.optional().openapi({
      description: 'The older name of `moderatorEmail` (an email too), still accepted',
    }),
  })
  .strict()
  .openapi('ModerationCreate');

export const ModerationOut = z
  .object({
    id: z.string().openapi({ example: 'mod_01jd2x9k3m4n5p6q7r8s9t0v1w' }),
    assessmentId: z.string(),
    decision: z.enum(MODERATION_DECISIONS),
    notes: z.string(),
    moderatorEmail: z.string().nullable(),
    moderatedBy: ActorOut.openapi({ description: 'The API key or staff user that recorded the moderation' }),
    moderatedAt: Timestamp,
    originalOutcome: z.enum(OUTCOMES),
    effectiveOutcome: z.enum(OUTCOMES).openapi({ description: 'The original outcome, flipped when overturned' }),
  })
  .openapi('Moderation');

export const AssessmentOut = z
  .object({
    id: z.string().openapi({ example: 'asm_01jd2x9k3m4n5p6q7r8s9t0v1w' }),
    learnerId: z.string(),
    enrolmentId: z.string(),
    programmeId: z.string(),
    programmeCode: z.string(),
    moduleCode: z.string(),
    assessmentType: z.enum(ASSESSMENT_TYPES),
    outcome: z.enum(OUTCOMES).openapi({ description: 'As recorded; never changes' }),
    effectiveOutcome: z.enum(OUTCOMES).openapi({ description: 'What counts for progress (after moderation)' }),
    assessmentDate: RealDate,
    assessorEmail: z.string().nullable().openapi({ description: 'The assessor email given, else null' }),
    assessorId: z.string().nullable().openapi({ description: 'The older name of `assessorEmail`: the same value' }),
    recordedBy: ActorOut,
    createdAt: Timestamp,
    updatedAt: Timestamp.openapi({ description: 'When it was moderated, else when it was recorded' }),
    moderation: z.union([ModerationOut, z.null()]),
  })
  .openapi('Assessment');

export const AssessmentListQuery = z
  .object({
    learnerId: z.string().max(64).optional(),
    enrolmentId: z.string().max(64).optional(),
    moduleCode: z.string().max(50).optional(),
    outcome: z.enum(OUTCOMES).optional().openapi({ description: 'The recorded outcome' }),
    assessmentType: z.enum(ASSESSMENT_TYPES).optional(),
    from: RealDate.optional().openapi({ description: 'Assessment date on or after (inclusive)' }),
    to: RealDate.optional().openapi({ description: 'Assessment date on or before (inclusive)' }),
    updatedFrom: Instant.optional().openapi({
      description:
        'Recorded or moderated at or after (inclusive): incremental sync; see docs/api.md "Incremental sync"',
    }),
    updatedTo: Instant.optional().openapi({
      description: 'Recorded or moderated at or before (inclusive); a bare date includes that whole day',
    }),
  })
  .strict();
