import { ClaimDeliveries } from './claim-deliveries.js';
import { RecordDeliveryOutcomes } from './record-delivery-outcomes.js';
import { DispatchOutbox } from './dispatch-outbox.js';
import { CreateWebhookSubscription } from './create-webhook-subscription.js';
import { DeleteWebhookSubscription } from './delete-webhook-subscription.js';
import { EnableWebhookSubscription } from './enable-webhook-subscription.js';
import { UpdateWebhookSubscription } from './update-webhook-subscription.js';
import { GetWebhookSubscription } from './get-webhook-subscription.js';
import { ListDeliveryAttempts } from './list-delivery-attempts.js';
import { ListWebhookSubscriptions } from './list-webhook-subscriptions.js';
import { ReplayDelivery } from './replay-delivery.js';
import { ReplayEventsSince } from './replay-events-since.js';
import { RequestReplay } from './request-replay.js';
import { RotateWebhookSecret } from './rotate-webhook-secret.js';
import { SendTestEvent } from './send-test-event.js';
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
