import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { PING_EVENT } from '@fundi/domain';
import { IsoDateString, Timestamp, z } from '../schemas/common.js';
import { LearnerOut } from '../schemas/learner-schemas.js';

/** Payloads whose producers belong to other capabilities are described by their known fields and stay open. */
const open = <T extends z.ZodRawShape>(shape: T) => z.object(shape).catchall(z.unknown());

const EVENTS: Record<string, { summary: string; data: z.ZodType }> = {
  'learner.created': { summary: 'A learner is registered', data: LearnerOut },
  'learner.updated': {
    summary: 'A learner record changes; only the changed fields are sent',
    data: z.object({ id: z.string(), changes: z.record(z.string(), z.unknown()).openapi({ description: 'Changed field -> new value' }), updatedAt: Timestamp }),
  },
  'evidence.uploaded': { summary: 'Evidence is submitted', data: open({ evidenceId: z.string().optional(), learnerId: z.string().optional(), moduleId: z.string().optional(), evidenceType: z.string().optional(), filename: z.string().optional(), contentType: z.string().optional(), size: z.number().int().optional() }) },
  'evidence.reviewed': { summary: 'Evidence is approved, rejected or sent back for revision', data: open({ evidenceId: z.string().optional(), status: z.enum(['approved', 'rejected', 'revision_requested']).optional(), feedback: z.string().nullable().optional() }) },
  'assessment.recorded': { summary: 'An assessment is recorded (outcome, learner)', data: open({ assessmentId: z.string().optional(), learnerId: z.string().optional(), moduleCode: z.string().optional(), outcome: z.enum(['C', 'NYC']).optional(), assessmentDate: IsoDateString.optional() }) },
  'assessment.completed': { summary: 'Second-list name of assessment.recorded, emitted at the same moment with the same data', data: open({ assessmentId: z.string().optional(), outcome: z.enum(['C', 'NYC']).optional() }) },
  'moderation.completed': { summary: 'A moderator records a decision', data: open({ assessmentId: z.string().optional(), decision: z.enum(['upheld', 'overturned']).optional(), notes: z.string().nullable().optional() }) },
  'enrolment.status_changed': { summary: 'An enrolment moves to another status', data: open({ enrolmentId: z.string().optional(), learnerId: z.string().optional(), from: z.string().optional(), to: z.string().optional(), reason: z.string().nullable().optional() }) },
  'export.ready': { summary: 'An export is generated; carries a signed download URL', data: open({ exportId: z.string().optional(), downloadUrl: z.string().optional(), expiresAt: Timestamp.optional() }) },
  'export.completed': { summary: 'Second-list name of export.ready, same moment and data', data: open({ exportId: z.string().optional(), downloadUrl: z.string().optional() }) },
  [PING_EVENT]: { summary: 'Test event of POST /webhook-subscriptions/{id}/test (not subscribable)', data: z.object({ subscriptionId: z.string(), message: z.string() }) },
};

const headers = z.object({
  'x-webhook-id': z.string().openapi({ description: 'The event id, the same on every attempt' }),
  'x-webhook-event': z.string().openapi({ description: 'The event name' }),
  'x-webhook-signature': z.string().openapi({ description: 'Lowercase hex HMAC-SHA256 of the raw body, keyed with the secret string (UTF-8, `whsec_` included)' }),
  'x-webhook-signature-previous': z.string().optional().openapi({ description: 'During the 24 h after a rotation: the same signature with the previous secret' }),
  'webhook-id': z.string().openapi({ description: 'Standard Webhooks: the event id' }),
  'webhook-timestamp': z.string().openapi({ description: 'Standard Webhooks: Unix seconds of this attempt' }),
  'webhook-signature': z.string().optional().openapi({ description: 'Standard Webhooks `v1,<base64>` signatures, space-separated (both secrets during a rotation); only for `whsec_` secrets' }),
});

/**
 * The OpenAPI 3.1 `webhooks` section (D6): one entry per event name with its envelope, data and headers.
 * Passed to buildOpenApi as its `extend` hook.
 */
export function registerWebhookEvents(registry: OpenAPIRegistry): void {
  for (const [type, e] of Object.entries(EVENTS)) {
    const envelope = z.object({
      id: z.string().openapi({ example: 'evt_01jd2x9k3m4n5p6q7r8s9t0v1w' }), type: z.literal(type), timestamp: Timestamp,
      tenantId: z.string(), data: e.data,
    });
    registry.registerWebhook({
      method: 'post', path: type, operationId: `webhook_${type.replace(/\./g, '_')}`, summary: e.summary, tags: ['Webhooks'],
      description: 'POSTed to each subscriber of this event. Any 2xx within 10 s acknowledges it; anything else (redirects included) is retried at 5 min, 30 min, 2 h and 24 h.',
      request: { headers, body: { required: true, content: { 'application/json': { schema: envelope } } } },
      responses: { 200: { description: 'Any 2xx acknowledges the event' } },
    });
  }
}
