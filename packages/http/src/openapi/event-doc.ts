import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { OfferedHooks } from '@fundi/application';
import { Timestamp, z } from '../schemas/common.js';

/** How a capability documents an event it writes: its summary and the `data` schema of its producer. */
export interface EventDoc {
  summary: string;
  description?: string;
  /** Or made from what the capabilities offer each other (the export types an export's `type` names). */
  data: z.ZodType | ((hooks: OfferedHooks) => z.ZodType);
  /** `false` for an event sent but never subscribed to (the webhooks' test `ping`). */
  subscribable?: boolean;
}

/** A capability's events by name (declared in its module: docs/architecture.md, "A capability's anatomy"). */
export type EventDocs = Readonly<Record<string, EventDoc>>;

/** Every event's documentation with its `data` schema made (`eventDocsOf` of the server). */
export type MadeEventDocs = Readonly<Record<string, EventDoc & { data: z.ZodType }>>;

/**
 * The source of the write an event tells of, where it was not the API: `import` when a CSV import wrote the record
 * (the audit origin of the same name; docs/api.md, "Imports"). A rule of the events, which every event of a record
 * that a bulk write may make carries alike.
 */
export const writeSource = {
  source: z
    .enum(['import'])
    .optional()
    .openapi({ description: 'Present when a CSV import wrote the record (absent when the API did)' }),
};

/** What every event that carries a learner's personal data says of erasure. */
export const ERASABLE = ' After the learner is erased, a retry or replay carries `{id, erased: true}` instead.';

export const DELIVERY =
  'POSTed to each subscriber of this event. Any 2xx within 10 s acknowledges it; anything else (redirects included) is retried at 5 min, 30 min, 2 h and 24 h.';

/** The headers of every webhook request (docs/webhooks.md). */
export const webhookHeaders = z.object({
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

/**
 * The OpenAPI 3.1 `webhooks` entries of `events` (every capability's declared events): one per event name with its
 * envelope, data and headers.
 */
export function registerEvents(registry: OpenAPIRegistry, events: MadeEventDocs): void {
  for (const [type, e] of Object.entries(events)) {
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
      request: {
        headers: webhookHeaders,
        body: { required: true, content: { 'application/json': { schema: envelope } } },
      },
      responses: { 200: { description: 'Any 2xx acknowledges the event' } },
    });
  }
}
