import { ClaimDeliveries, RecordDeliveryOutcomes } from './deliveries.js';
import { DispatchOutbox } from './dispatch-outbox.js';
import { CreateWebhookSubscription } from './create-webhook-subscription.js';
import { DeleteWebhookSubscription } from './delete-webhook-subscription.js';
import { EnableWebhookSubscription } from './enable-webhook-subscription.js';
import { UpdateWebhookSubscription } from './update-webhook-subscription.js';
import { GetWebhookSubscription, ListDeliveryAttempts, ListWebhookSubscriptions } from './read-subscriptions.js';
import { ReplayDelivery, ReplayEventsSince, RequestReplay } from './replay.js';
import { RotateWebhookSecret, SendTestEvent } from './subscription-actions.js';
import type { WebhookDeps } from './webhook-ports.js';

/** The webhooks capability's use cases: the subscription API's, and the worker's (fan-out, claims, outcomes). */
export function webhookUseCases(d: WebhookDeps) {
  return {
    create: new CreateWebhookSubscription(d),
    update: new UpdateWebhookSubscription(d),
    remove: new DeleteWebhookSubscription(d),
    enable: new EnableWebhookSubscription(d),
    get: new GetWebhookSubscription(d),
    list: new ListWebhookSubscriptions(d),
    listAttempts: new ListDeliveryAttempts(d),
    rotateSecret: new RotateWebhookSecret(d),
    sendTest: new SendTestEvent(d),
    replayDelivery: new ReplayDelivery(d),
    requestReplay: new RequestReplay(d),
    replayEventsSince: new ReplayEventsSince(d),
    dispatchOutbox: new DispatchOutbox(d),
    claimDeliveries: new ClaimDeliveries(d),
    recordOutcomes: new RecordDeliveryOutcomes(d),
    eventTypes: d.policy.eventTypes,
  };
}

export type WebhookUseCases = ReturnType<typeof webhookUseCases>;
