import { IdParams, Instant, Timestamp, z } from '../schemas/common.js';

/** An event name among `eventTypes`: the enum is documentation; the domain checks the names. */
const eventNameOf = (eventTypes: readonly string[]) =>
  z.string().openapi({ enum: [...eventTypes], example: 'learner.created' });
const url = z.string().openapi({
  format: 'uri',
  example: 'https://hooks.example.co.za/fundi',
  description:
    'Receiver URL; https required unless the operator allows http. Refused when set, and again at delivery, when it resolves to a loopback, private, link-local or reserved address (unless allow-listed).',
});
const secret = z.string().openapi({
  description:
    'Signing secret, 16-256 printable characters. The `whsec_<base64>` form also gets Standard Webhooks signatures; generated when omitted.',
  example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
});

export const RotateSecretBody = z.object({ secret: secret.optional() }).strict().openapi('WebhookSecretRotation');
export const ReplayBody = z
  .object({
    since: Instant.openapi({
      description: 'Every event of the subscribed types that occurred at or after this time is sent again',
    }),
  })
  .strict()
  .openapi('WebhookReplay');
export const EmptyBody = z.object({}).strict();

export const DeliveryParams = IdParams.extend({
  deliveryId: z
    .string()
    .min(1)
    .max(64)
    .openapi({ description: 'Delivery id (`deliveryId` of an attempt)', example: 'dlv_01jd2x9k3m4n5p6q7r8s9t0v1w' }),
});

/**
 * The subscription schemas, whose event names are the declared ones (`eventTypes`, derived from the capability
 * list); made once per list, so each named component has one schema.
 */
export function subscriptionSchemas(eventTypes: readonly string[]) {
  const key = eventTypes.join(' ');
  let made = madeFor.get(key);
  if (!made) madeFor.set(key, (made = makeSubscriptionSchemas(eventTypes)));
  return made;
}

const madeFor = new Map<string, ReturnType<typeof makeSubscriptionSchemas>>();

function makeSubscriptionSchemas(eventTypes: readonly string[]) {
  const eventName = eventNameOf(eventTypes);
  const WebhookSubscriptionCreate = z
    .object({
      url,
      events: z.array(eventName).openapi({
        description:
          'Non-empty subset of the event names; `ping` is sent by the test endpoint and cannot be subscribed to',
      }),
      enabled: z.boolean().optional().openapi({ default: true }),
      secret: secret.optional(),
    })
    .strict()
    .openapi('WebhookSubscriptionCreate');

  const WebhookSubscriptionUpdate = z
    .object({
      url: url.optional(),
      events: z.array(eventName).optional(),
      enabled: z
        .boolean()
        .optional()
        .openapi({ description: 'false holds deliveries; true is the same as POST .../enable' }),
    })
    .strict()
    .openapi('WebhookSubscriptionUpdate');

  const WebhookSubscriptionOut = z
    .object({
      id: z.string().openapi({ example: 'whs_01jd2x9k3m4n5p6q7r8s9t0v1w' }),
      url: z.string(),
      events: z.array(eventName),
      enabled: z.boolean(),
      disabledReason: z
        .string()
        .nullable()
        .openapi({ description: '`delivery_failed` (5 failed attempts of an event) or `disabled_by_api`' }),
      previousSecretExpiresAt: Timestamp.nullable().openapi({
        description: 'Until then the previous secret still signs beside the current one',
      }),
      createdAt: Timestamp,
      updatedAt: Timestamp,
    })
    .openapi('WebhookSubscription');

  const WebhookSubscriptionWithSecretOut = WebhookSubscriptionOut.extend({
    secret: z.string().openapi({ description: 'The signing secret, shown only in this response' }),
  }).openapi('WebhookSubscriptionWithSecret');

  const EnabledSubscriptionOut = WebhookSubscriptionOut.extend({
    requeued: z.number().int().openapi({ description: 'Undelivered deliveries made due again' }),
  }).openapi('WebhookSubscriptionEnabled');
  return {
    WebhookSubscriptionCreate,
    WebhookSubscriptionUpdate,
    WebhookSubscriptionOut,
    WebhookSubscriptionWithSecretOut,
    EnabledSubscriptionOut,
  };
}

export const AttemptOut = z
  .object({
    id: z.string().openapi({ example: 'wha_01jd2x9k3m4n5p6q7r8s9t0v1w' }),
    deliveryId: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    attempt: z.number().int().openapi({ description: '1-5 within one schedule' }),
    at: Timestamp,
    statusCode: z.number().int().nullable().openapi({ description: 'null when no response arrived' }),
    latencyMs: z.number().int(),
    error: z.string().nullable().openapi({ example: 'timeout after 10000 ms' }),
    responseExcerpt: z.string().nullable().openapi({ description: 'The first 1 KB of the response body' }),
  })
  .openapi('WebhookAttempt');

export const QueuedEventOut = z
  .object({ eventId: z.string(), type: z.literal('ping'), status: z.literal('queued') })
  .openapi('WebhookTestQueued');
export const ReplayedDeliveryOut = z
  .object({ deliveryId: z.string(), eventId: z.string(), eventType: z.string(), status: z.literal('pending') })
  .openapi('WebhookDeliveryReplayed');
export const QueuedReplayOut = z
  .object({ jobId: z.string(), since: z.string(), status: z.literal('queued') })
  .openapi('WebhookReplayQueued');
