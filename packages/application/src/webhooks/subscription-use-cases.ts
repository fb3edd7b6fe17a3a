import type { CreateWebhookSubscription } from './create-webhook-subscription.js';
import type { DeleteWebhookSubscription } from './delete-webhook-subscription.js';
import type { EnableWebhookSubscription } from './enable-webhook-subscription.js';
import type { UpdateWebhookSubscription } from './update-webhook-subscription.js';
import type { RotateWebhookSecret, SendTestEvent } from './subscription-actions.js';
import type { GetWebhookSubscription, ListDeliveryAttempts, ListWebhookSubscriptions } from './read-subscriptions.js';
import type { ReplayDelivery, RequestReplay } from './replay.js';

/** The use cases behind the `/webhook-subscriptions` routes. */
export interface WebhookSubscriptionUseCases {
  create: CreateWebhookSubscription;
  update: UpdateWebhookSubscription;
  remove: DeleteWebhookSubscription;
  enable: EnableWebhookSubscription;
  get: GetWebhookSubscription;
  list: ListWebhookSubscriptions;
  listAttempts: ListDeliveryAttempts;
  rotateSecret: RotateWebhookSecret;
  sendTest: SendTestEvent;
  replayDelivery: ReplayDelivery;
  requestReplay: RequestReplay;
  /** The event names a subscription may ask for (every capability's declared events). */
  eventTypes: readonly string[];
}
