import { ENROLMENT_STATUSES, MODULE_KINDS, OUTCOMES } from '@fundi/domain/training';
import { Instant, Timestamp, ActorOut } from '../schemas/common.js';
import { Code, RealDate, z } from './training-common.js';

const Status = z.enum(ENROLMENT_STATUSES);

export const EnrolmentCreate = z
  .object({
    learnerId: z
      .string()
      .max(64)
      .openapi({ description: 'The learner id (`lrn_...`)', example: 'lrn_01jd2x9k3m4n5p6q7r8s9t0v1w' }),
    programmeCode: Code,
    startDate: RealDate,
    expectedEndDate: RealDate.nullable().optional().openapi({ description: 'Not before startDate' }),
    fundingSource: z
      .string()
      .max(50)
      .nullable()
      .optional()
      .openapi({ description: 'Free code for now', example: 'MERSETA-DG' }),
  })
  .strict()
  .openapi('EnrolmentCreate');

export const StatusChangeIn = z
  .object({
    status: Status.openapi({
      description:
        'enrolled -> in_progress | withdrawn; in_progress -> suspended | completed | withdrawn; suspended -> in_progress | withdrawn',
    }),
    reason: z.string().max(1000).nullable().optional(),
    effectiveDate: RealDate.optional().openapi({
      description: 'Not in the future; defaults to today. For completed it is the achievement date.',
    }),
    certificateNumber: z.string().max(100).optional().openapi({
      description:
        'Only with status completed: the certificate number, passed on to HR in learner.completed (docs/api.md, "HR sync")',
    }),
  })
  .strict()
  .openapi('EnrolmentStatusChange');

const ModuleProgress = z
  .object({
    code: z.string(),
    name: z.string(),
    kind: z.enum(MODULE_KINDS),
    latestOutcome: z
      .enum(OUTCOMES)
      .nullable()
      .openapi({ description: 'Effective outcome (after moderation) of the latest summative assessment' }),
    assessmentId: z.string().nullable(),
    moderated: z.boolean(),
  })
  .openapi('ModuleProgress');

export const EnrolmentOut = z
  .object({
    id: z.string().openapi({ example: 'enr_01jd2x9k3m4n5p6q7r8s9t0v1w' }),
    learnerId: z.string(),
    programmeId: z.string(),
    programmeCode: z.string(),
    startDate: RealDate,
    expectedEndDate: RealDate.nullable(),
    fundingSource: z.string().nullable(),
    status: Status,
    achievementDate: RealDate.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    progress: z.object({ competent: z.number().int(), total: z.number().int(), modules: z.array(ModuleProgress) }),
  })
  .openapi('Enrolment');

export const EnrolmentListQuery = z
  .object({
    learnerId: z.string().max(64).optional(),
    programmeCode: z.string().max(50).optional(),
    status: Status.optional(),
    startFrom: RealDate.optional().openapi({ description: 'Start date on or after (inclusive)' }),
    startTo: RealDate.optional().openapi({ description: 'Start date on or before (inclusive)' }),
    updatedFrom: Instant.optional().openapi({
      description: 'Changed at or after (inclusive): incremental sync; see docs/api.md "Incremental sync"',
    }),
    updatedTo: Instant.optional().openapi({
      description: 'Changed at or before (inclusive); a bare date includes that whole day',
    }),
  })
  .strict();

export const StatusChangeOut = z
  .object({
    id: z.string(),
    enrolmentId: z.string(),
    from: Status.nullable().openapi({ description: 'null for the enrolment itself' }),
    to: Status,
    reason: z.string().nullable(),
    effectiveDate: RealDate,
    changedBy: ActorOut,
    changedAt: Timestamp,
  })
  .openapi('EnrolmentHistoryEntry');
