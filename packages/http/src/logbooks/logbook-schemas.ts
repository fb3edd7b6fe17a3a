import { MAX_SUBMITTED_ENTRIES } from '@fundi/application/logbooks';
import { LOGBOOK_STATUSES } from '@fundi/domain/logbooks';
import type { EventDocs } from '../openapi/event-doc.js';
import { IsoDateString, Timestamp, z } from '../schemas/common.js';

const Supervisor = z
  .object({
    name: z.string().max(200).openapi({ example: 'Sipho Khumalo' }),
    email: z.string().max(254).nullable().optional(),
    mobile: z.string().max(30).nullable().optional().openapi({ description: 'A South African mobile number' }),
  })
  .strict()
  .openapi('LogbookSupervisor');

const fields = {
  date: IsoDateString,
  hours: z.number().openapi({ description: 'Above 0 and at most 24, in quarters of an hour', example: 7.5 }),
  activity: z.string().max(2000).openapi({ example: 'Installed conduit and pulled cable on the second floor' }),
  workplace: z.string().max(200).openapi({ description: 'The employer or site', example: 'Ubuntu Electrical' }),
  supervisor: Supervisor,
  evidenceIds: z.array(z.string()).max(20).optional().openapi({ description: 'Photos: ids of evidence files' }),
};

export const LogbookCreate = z
  .object({
    learnerId: z.string(),
    moduleCode: z.string().openapi({ description: 'A workplace module of an open enrolment', example: 'WM-01' }),
    enrolmentId: z.string().optional(),
    ...fields,
  })
  .strict()
  .openapi('LogbookEntryCreate');

export const LogbookUpdate = z
  .object({
    date: fields.date.optional(),
    hours: fields.hours.optional(),
    activity: fields.activity.optional(),
    workplace: fields.workplace.optional(),
    supervisor: Supervisor.optional(),
    evidenceIds: fields.evidenceIds,
  })
  .strict()
  .openapi('LogbookEntryUpdate');

export const LogbookListQuery = z.object({
  learnerId: z.string().optional(),
  moduleCode: z.string().optional(),
  status: z.enum(LOGBOOK_STATUSES).optional(),
});

const SignOff = z
  .object({
    outcome: z.enum(['confirmed', 'queried']),
    by: z.string().openapi({ description: "The supervisor's name as the page showed it" }),
    at: Timestamp,
    ip: z.string().openapi({ description: 'The client address the answer came from' }),
    hash: z.string().openapi({ description: 'SHA-256 (hex) of what the page showed and the supervisor answered for' }),
    comment: z.string().nullable(),
  })
  .openapi('LogbookSignOff');

export const LogbookOut = z
  .object({
    id: z.string(),
    learnerId: z.string(),
    enrolmentId: z.string(),
    moduleCode: z.string(),
    date: z.string(),
    hours: z.number(),
    activity: z.string(),
    workplace: z.string(),
    supervisor: z.object({ name: z.string(), email: z.string().nullable(), mobile: z.string().nullable() }),
    evidenceIds: z.array(z.string()),
    status: z.enum(LOGBOOK_STATUSES),
    submittedAt: Timestamp.nullable(),
    submissionId: z
      .string()
      .nullable()
      .openapi({ description: 'The sign-off request it was last submitted in (entries sent together share it)' }),
    signedAt: Timestamp.nullable(),
    signOff: SignOff.nullable(),
    createdBy: z.string(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('LogbookEntry');

export const LogbookSubmit = z
  .object({
    ids: z
      .array(z.string())
      .min(1)
      .max(MAX_SUBMITTED_ENTRIES)
      .openapi({ description: 'Entries of one learner, each named once: all are submitted or none' }),
  })
  .strict()
  .openapi('LogbookSubmit');

export const LogbookSubmitted = z
  .object({
    data: z.array(LogbookOut).openapi({ description: 'The entries, submitted, in the order asked' }),
    submissions: z
      .array(
        z
          .object({
            id: z.string().openapi({ example: 'lbs_01JD2Y8ZK3Q9W4E5R6T7Y8U9I0' }),
            supervisorName: z.string(),
            entryIds: z.array(z.string()),
          })
          .openapi('LogbookSubmission'),
      )
      .openapi({ description: 'One sign-off request (one link) per supervisor address' }),
  })
  .openapi('LogbookSubmitted');

export const LogbookHoursOut = z
  .object({
    moduleCode: z.string(),
    logged: z.number(),
    signed: z.number(),
    required: z.number().nullable(),
    ready: z.boolean().openapi({ description: 'Signed hours reach the requirement: ready for assessment' }),
  })
  .openapi('LogbookHours');

export const LogbookHoursList = z.object({ data: z.array(LogbookHoursOut) }).openapi('LogbookHoursList');

/** `data` of the logbook events. */
export const LogbookEventData = z.object({
  entryId: z.string(),
  learnerId: z.string(),
  enrolmentId: z.string(),
  moduleCode: z.string(),
  date: z.string().openapi({ format: 'date' }),
  hours: z.number(),
  status: z.enum(LOGBOOK_STATUSES),
  submittedAt: Timestamp.nullable(),
  submissionId: z
    .string()
    .nullable()
    .openapi({ description: 'The sign-off request: entries submitted together to one supervisor share it' }),
  signedAt: Timestamp.nullable(),
  comment: z.string().nullable().openapi({ description: "The supervisor's comment (a query's reason)" }),
});

/** The logbooks capability's events (docs/api.md, "Logbooks"). */
export const logbookEvents = {
  'logbook.submitted': {
    summary: "A logbook entry is submitted for the supervisor's sign-off",
    data: LogbookEventData,
  },
  'logbook.signed': {
    summary: 'The supervisor confirmed a logbook entry (it is frozen from now on)',
    data: LogbookEventData,
  },
  'logbook.queried': { summary: 'The supervisor queried a logbook entry, with a comment', data: LogbookEventData },
} satisfies EventDocs;
