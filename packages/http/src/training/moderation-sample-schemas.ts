import { Timestamp, ActorOut } from '../schemas/common.js';
import { AssessmentOut } from './assessment-schemas.js';
import { Code, RealDate, z } from './training-common.js';

/** Moderation samples: a proposal over a period, and the samples drawn and kept (docs/api.md, "Moderation"). */
export const SampleQuery = z
  .object({
    programmeCode: Code,
    from: RealDate.optional(),
    to: RealDate.optional(),
    percent: z.coerce
      .number()
      .int()
      .min(1)
      .max(100)
      .optional()
      .openapi({ type: 'integer', minimum: 1, maximum: 100, default: 10 }),
  })
  .strict();

export const SampleOut = z
  .object({
    programmeCode: z.string(),
    from: RealDate.nullable(),
    to: RealDate.nullable(),
    percent: z.number().int(),
    population: z.number().int().openapi({ description: 'Summative assessments of the programme in the period' }),
    alreadyModerated: z.number().int().openapi({ description: 'How many of them are moderated already' }),
    sample: z.array(AssessmentOut),
  })
  .openapi('ModerationSample');

const SampleId = z.string().openapi({ example: 'smp_01jd2x9k3m4n5p6q7r8s9t0v1w' });

export const SampleDrawIn = z
  .object({
    programmeId: z.string().min(1).max(64).optional().openapi({ example: 'prg_01jd2x9k3m4n5p6q7r8s9t0v1w' }),
    programmeCode: Code.optional(),
    from: RealDate.nullable().optional().openapi({ description: 'First assessment date of the period (inclusive)' }),
    to: RealDate.nullable().optional().openapi({ description: 'Last assessment date of the period (inclusive)' }),
    percent: z.number().int().min(1).max(100).optional().openapi({ default: 10 }),
    dueBy: RealDate.nullable()
      .optional()
      .openapi({ description: 'When the moderation is due; not in the past. Default: 14 days after drawing' }),
  })
  .strict()
  .openapi('ModerationSampleDraw', { description: 'Names the programme by `programmeId` or `programmeCode`' });

export const ModerationSampleOut = z
  .object({
    id: SampleId,
    programmeId: z.string(),
    programmeCode: z.string(),
    from: RealDate.nullable(),
    to: RealDate.nullable(),
    percent: z.number().int(),
    population: z.number().int().openapi({ description: 'Summative assessments of the period when it was drawn' }),
    alreadyModerated: z.number().int().openapi({ description: 'How many of them were moderated then' }),
    assessmentIds: z.array(z.string()).openapi({ description: 'The sample, in sample order' }),
    dueBy: RealDate,
    drawnBy: ActorOut.openapi({ description: 'The API key or staff user that drew it' }),
    drawnAt: Timestamp,
  })
  .openapi('ModerationSampleRecord');

export const SampleListQuery = z
  .object({
    programmeId: z.string().max(64).optional(),
    programmeCode: z.string().max(50).optional(),
  })
  .strict();
