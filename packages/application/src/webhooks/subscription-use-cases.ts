import type { CreateWebhookSubscription } from './create-webhook-subscription.js';
import type { DeleteWebhookSubscription } from './delete-webhook-subscription.js';
import type { EnableWebhookSubscription } from './enable-webhook-subscription.js';
import type { UpdateWebhookSubscription } from './update-webhook-subscription.js';
import type { RotateWebhookSecret } from './rotate-webhook-secret.js';
import type { SendTestEvent } from './send-test-event.js';
import type { GetWebhookSubscription } from './get-webhook-subscription.js';
import type { ListDeliveryAttempts } from './list-delivery-attempts.js';
import type { ListWebhookSubscriptions } from './list-webhook-subscriptions.js';
import type { ReplayDelivery } from './replay-delivery.js';
import type { RequestReplay } from './request-replay.js';

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
