import { ENROLMENT_STATUSES } from '@fundi/domain/training';
import { writeSource, type EventDocs } from '../openapi/event-doc.js';
import { z } from '../schemas/common.js';
import { AssessmentOut, ModerationOut } from './assessment-schemas.js';
import { ModerationSampleOut } from './moderation-sample-schemas.js';
import { RealDate } from './training-common.js';

/**
 * The `data` of each event exactly as its producer (packages/application) writes it, built from the response
 * schemas so a field is described once. The objects are closed; the webhook conformance tests parse real deliveries
 * with them, so a producer that adds or drops a field fails them until this file follows.
 */

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
    ...writeSource,
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

/** The training capability's events (docs/api.md, "Events and webhooks"). */
export const trainingEvents = {
  'assessment.recorded': { summary: 'An assessment is recorded', data: AssessmentEventData },
  'assessment.completed': {
    summary: 'Second-list name of assessment.recorded: the same moment and data, its own event id',
    data: AssessmentEventData,
  },
  'moderation.completed': { summary: 'A moderator records a decision on an assessment', data: ModerationCompletedData },
  'moderation.sample_drawn': {
    summary: 'A moderation sample is drawn and recorded',
    description:
      'Written by `POST /moderation/samples`; `GET /moderation/samples/{sampleId}` gives its assessment ids.',
    data: ModerationSampleDrawnData,
  },
  'enrolment.status_changed': { summary: 'An enrolment moves to another status', data: EnrolmentStatusChangedData },
} satisfies EventDocs;
