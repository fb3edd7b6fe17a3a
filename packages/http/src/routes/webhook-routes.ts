import type { WebhookSubscriptionUseCases } from '@fundi/application';
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
} from '../schemas/webhook-schemas.js';
import { route, type RouteDef } from './route.js';

const tag = 'Webhooks';
const base = '/webhook-subscriptions';
const one = `${base}/{id}`;

export function webhookRoutes(u: WebhookSubscriptionUseCases): RouteDef[] {
  const {
    WebhookSubscriptionCreate,
    WebhookSubscriptionOut,
    WebhookSubscriptionUpdate,
    WebhookSubscriptionWithSecretOut,
  } = subscriptionSchemas(u.eventTypes);
  return [
    route({
      operationId: 'listWebhookSubscriptions',
      summary: 'List webhook subscriptions',
      tag,
      method: 'get',
      path: base,
      scope: 'webhooks:read',
      list: { item: WebhookSubscriptionOut },
      success: { status: 200, description: 'A page of subscriptions (never their secrets)' },
      handle: ({ actor, page }) => u.list.execute(actor, page),
    }),
    route({
      operationId: 'createWebhookSubscription',
      summary: 'Subscribe to events',
      tag,
      method: 'post',
      path: base,
      scope: 'webhooks:write',
      body: WebhookSubscriptionCreate,
      success: {
        status: 201,
        schema: WebhookSubscriptionWithSecretOut,
        description: 'The subscription with its secret, shown this once',
      },
      handle: ({ actor, body }) => u.create.execute(actor, body),
    }),
    route({
      operationId: 'getWebhookSubscription',
      summary: 'Get a webhook subscription',
      tag,
      method: 'get',
      path: one,
      scope: 'webhooks:read',
      params: IdParams,
      success: { status: 200, schema: WebhookSubscriptionOut, description: 'The subscription' },
      errors: [404],
      handle: ({ actor, params }) => u.get.execute(actor, params.id),
    }),
    route({
      operationId: 'updateWebhookSubscription',
      summary: 'Change url, events or enabled',
      tag,
      method: 'patch',
      path: one,
      scope: 'webhooks:write',
      params: IdParams,
      body: WebhookSubscriptionUpdate,
      success: { status: 200, schema: WebhookSubscriptionOut, description: 'The updated subscription' },
      errors: [404],
      handle: ({ actor, params, body }) => u.update.execute(actor, params.id, body),
    }),
    route({
      operationId: 'deleteWebhookSubscription',
      summary: 'Delete a subscription with its delivery log',
      tag,
      method: 'delete',
      path: one,
      scope: 'webhooks:delete',
      params: IdParams,
      success: { status: 204, description: 'Deleted' },
      errors: [404],
      handle: ({ actor, params }) => u.remove.execute(actor, params.id),
    }),
    ...actionRoutes(u),
  ];
}

function actionRoutes(u: WebhookSubscriptionUseCases): RouteDef[] {
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
