import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { PING_EVENT, type WebhookEventType } from '@fundi/domain';
import { Timestamp, z } from '../schemas/common.js';
import {
  EvidenceReviewedData,
  EvidenceUploadedData,
  AssessmentEventData,
  EnrolmentStatusChangedData,
  ErasedLearnerData,
  LearnerCreatedData,
  LearnerUpdatedData,
  ModerationCompletedData,
  ModerationSampleDrawnData,
  PingData,
  ImportCompletedData,
  ExportReadyData,
} from '../schemas/event-schemas.js';
import { LogbookEventData } from '../schemas/logbook-schemas.js';

const ERASABLE = ' After the learner is erased, a retry or replay carries `{id, erased: true}` instead.';

/** Each event name, plus the test event, with its summary and the `data` schema of its producer. */
export const WEBHOOK_EVENTS: Record<
  WebhookEventType | typeof PING_EVENT,
  { summary: string; description?: string; data: z.ZodType }
> = {
  'learner.created': {
    summary: 'A learner is registered',
    description: `Data: the learner as \`GET /learners/{id}\` returns it.${ERASABLE}`,
    data: z.union([LearnerCreatedData, ErasedLearnerData]),
  },
  'learner.updated': {
    summary: 'A learner record changes; only the changed fields are sent',
    description: ERASABLE.trim(),
    data: z.union([LearnerUpdatedData, ErasedLearnerData]),
  },
  'logbook.submitted': {
    summary: "A logbook entry is submitted for the supervisor's sign-off",
    data: LogbookEventData,
  },
  'logbook.signed': {
    summary: 'The supervisor confirmed a logbook entry (it is frozen from now on)',
    data: LogbookEventData,
  },
  'logbook.queried': { summary: 'The supervisor queried a logbook entry, with a comment', data: LogbookEventData },
  'enrolment.status_changed': { summary: 'An enrolment moves to another status', data: EnrolmentStatusChangedData },
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
  'evidence.uploaded': {
    summary: 'Evidence, or a new version of it, is stored',
    description: `The file name may identify the learner.${ERASABLE}`,
    data: z.union([EvidenceUploadedData, ErasedLearnerData]),
  },
  'evidence.reviewed': {
    summary: 'Evidence is approved, rejected or sent back for revision',
    description: `Feedback may identify the learner.${ERASABLE}`,
    data: z.union([EvidenceReviewedData, ErasedLearnerData]),
  },
  'export.ready': {
    summary: 'An export is generated; carries a signed download URL',
    description: 'Written when the worker finishes an export (docs/api.md, "Exports").',
    data: ExportReadyData,
  },
  'export.completed': {
    summary: 'Second-list name of export.ready, same moment and data',
    data: ExportReadyData,
  },
  'import.completed': {
    summary: 'A confirmed CSV import has written its valid rows; carries the counts',
    description: 'Each row written raised its own event too (learner.created, assessment.recorded, ...).',
    data: ImportCompletedData,
  },
  [PING_EVENT]: { summary: 'Test event of POST /webhook-subscriptions/{id}/test (not subscribable)', data: PingData },
};

const headers = z.object({
  'x-webhook-id': z.string().openapi({ description: 'The event id, the same on every attempt' }),
  'x-webhook-event': z.string().openapi({ description: 'The event name' }),
  'x-webhook-signature': z.string().openapi({
    description: 'Lowercase hex HMAC-SHA256 of the raw body, keyed with the secret string (UTF-8, `whsec_` included)',
  }),
  'x-webhook-signature-previous': z
    .string()
    .optional()
    .openapi({ description: 'During the 24 h after a rotation: the same signature with the previous secret' }),
  'webhook-id': z.string().openapi({ description: 'Standard Webhooks: the event id' }),
  'webhook-timestamp': z.string().openapi({ description: 'Standard Webhooks: Unix seconds of this attempt' }),
  'webhook-signature': z.string().optional().openapi({
    description:
      'Standard Webhooks `v1,<base64>` signatures, space-separated (both secrets during a rotation); only for `whsec_` secrets',
  }),
});

const ErasedData = z.object({ id: z.string(), erased: z.literal(true) });

/** The HR outbound events (docs/api.md, "HR sync"): sent to the tenant's HR `outboundUrl` only. */
export const HR_OUTBOUND_EVENT_DATA = {
  'learner.completed': {
    summary: 'HR sync: an employee completed a programme (sent to the HR outboundUrl)',
    data: z.union([
      z.object({
        employeeRef: z.string(),
        qualificationId: z.string().nullable(),
        qualificationName: z.string(),
        programmeCode: z.string(),
        achievementDate: z.string().openapi({ format: 'date' }),
        certificateNumber: z.string().nullable(),
      }),
      ErasedData,
    ]),
  },
  'learner.competency': {
    summary: 'HR sync: an assessment of an employee was recorded (sent to the HR outboundUrl)',
    data: z.union([
      z.object({
        employeeRef: z.string(),
        moduleCode: z.string(),
        outcome: z.enum(['C', 'NYC']),
        assessmentType: z.enum(['formative', 'summative']),
        date: z.string().openapi({ format: 'date' }),
      }),
      ErasedData,
    ]),
  },
} as const;

const DELIVERY =
  'POSTed to each subscriber of this event. Any 2xx within 10 s acknowledges it; anything else (redirects included) is retried at 5 min, 30 min, 2 h and 24 h.';

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event name with its envelope, data and headers.
 * Passed to buildOpenApi as its `extend` hook.
 */
export function registerWebhookEvents(registry: OpenAPIRegistry): void {
  for (const [type, e] of Object.entries(WEBHOOK_EVENTS)) {
    const envelope = z.object({
      id: z.string().openapi({ example: 'evt_01jd2x9k3m4n5p6q7r8s9t0v1w' }),
      type: z.literal(type),
      timestamp: Timestamp,
      tenantId: z.string(),
      data: e.data,
    });
    registry.registerWebhook({
      method: 'post',
      path: type,
      operationId: `webhook_${type.replace(/\./g, '_')}`,
      summary: e.summary,
      tags: ['Webhooks'],
      description: [DELIVERY, e.description].filter(Boolean).join('\n\n'),
      request: { headers, body: { required: true, content: { 'application/json': { schema: envelope } } } },
      responses: { 200: { description: 'Any 2xx acknowledges the event' } },
    });
  }
  for (const [type, e] of Object.entries(HR_OUTBOUND_EVENT_DATA)) {
    const body = z.object({ event: z.literal(type), timestamp: Timestamp, data: e.data });
    registry.registerWebhook({
      method: 'post',
      path: `hr.${type}`,
      operationId: `hr_${type.replace(/\./g, '_')}`,
      summary: e.summary,
      tags: ['HR sync'],
      description: `${DELIVERY} Signed like every webhook; the event id is in \`webhook-id\`.${ERASABLE}`,
      request: { headers, body: { required: true, content: { 'application/json': { schema: body } } } },
      responses: { 200: { description: 'Any 2xx acknowledges the event' } },
    });
  }
}
