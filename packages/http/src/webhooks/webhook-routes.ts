import type { WebhookSubscriptionUseCases } from '@fundi/application/webhooks';
import { IdParams } from '../schemas/common.js';
import { subscriptionSchemas } from './webhook-schemas.js';
import { route, type RouteDef } from '../routes/route.js';
import { actionRoutes } from './webhook-action-routes.js';

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
