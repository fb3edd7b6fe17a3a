import type { WebhookSubscriptionUseCases } from '@fundi/application/webhooks';
import { IdParams } from '../schemas/common.js';
import {
  AttemptOut,
  DeliveryParams,
  EmptyBody,
  QueuedEventOut,
  QueuedReplayOut,
  ReplayBody,
  ReplayedDeliveryOut,
  RotateSecretBody,
  subscriptionSchemas,
} from './webhook-schemas.js';
import { route, type RouteDef } from '../routes/route.js';

const tag = 'Webhooks';
const one = '/webhook-subscriptions/{id}';

/** What is done to one subscription beyond its fields: rotating its secret, testing it, replaying its deliveries. */
export function actionRoutes(u: WebhookSubscriptionUseCases): RouteDef[] {
  const { WebhookSubscriptionWithSecretOut, EnabledSubscriptionOut } = subscriptionSchemas(u.eventTypes);
  return [
    route({
      operationId: 'rotateWebhookSecret',
      summary: 'Rotate the signing secret',
      tag,
      method: 'post',
      path: `${one}/rotate-secret`,
      scope: 'webhooks:write',
      description: 'For 24 hours deliveries carry signatures with both the new and the previous secret.',
      params: IdParams,
      body: RotateSecretBody,
      success: {
        status: 200,
        schema: WebhookSubscriptionWithSecretOut,
        description: 'The subscription with its new secret, shown this once',
      },
      errors: [404],
      handle: ({ actor, params, body }) => u.rotateSecret.execute(actor, params.id, body),
    }),
    route({
      operationId: 'testWebhookSubscription',
      summary: 'Send a ping event',
      tag,
      method: 'post',
      path: `${one}/test`,
      scope: 'webhooks:write',
      params: IdParams,
      body: EmptyBody,
      success: { status: 202, schema: QueuedEventOut, description: 'The ping is queued' },
      errors: [404, 409],
      handle: ({ actor, params }) => u.sendTest.execute(actor, params.id),
    }),
    route({
      operationId: 'listWebhookDeliveries',
      summary: 'Delivery log: every attempt, newest first',
      tag,
      method: 'get',
      path: `${one}/deliveries`,
      scope: 'webhooks:read',
      params: IdParams,
      list: { item: AttemptOut },
      success: { status: 200, description: 'A page of attempts' },
      errors: [404],
      handle: ({ actor, params, page }) => u.listAttempts.execute(actor, params.id, page),
    }),
    route({
      operationId: 'replayWebhookDelivery',
      summary: "Send one delivery's event again",
      tag,
      method: 'post',
      path: `${one}/deliveries/{deliveryId}/replay`,
      scope: 'webhooks:write',
      params: DeliveryParams,
      body: EmptyBody,
      success: {
        status: 202,
        schema: ReplayedDeliveryOut,
        description: 'A fresh delivery of the same event is queued',
      },
      errors: [404, 409],
      handle: ({ actor, params }) => u.replayDelivery.execute(actor, params.id, params.deliveryId),
    }),
    route({
      operationId: 'replayWebhookEvents',
      summary: 'Send every event since a time again',
      tag,
      method: 'post',
      path: `${one}/replay`,
      scope: 'webhooks:write',
      params: IdParams,
      body: ReplayBody,
      success: { status: 202, schema: QueuedReplayOut, description: 'The replay runs in the background' },
      errors: [404, 409],
      handle: ({ actor, params, body }) =>
        u.requestReplay.execute(actor, params.id, new Date(body.since).toISOString()),
    }),
    route({
      operationId: 'enableWebhookSubscription',
      summary: 'Re-enable; undelivered events are sent again',
      tag,
      method: 'post',
      path: `${one}/enable`,
      scope: 'webhooks:write',
      params: IdParams,
      body: EmptyBody,
      success: { status: 200, schema: EnabledSubscriptionOut, description: 'The enabled subscription' },
      errors: [404],
      handle: ({ actor, params }) => u.enable.execute(actor, params.id),
    }),
  ];
}
