import type {
  CreateWebhookSubscription, DeleteWebhookSubscription, EnableWebhookSubscription, GetWebhookSubscription, ListDeliveryAttempts,
  ListWebhookSubscriptions, ReplayDelivery, RequestReplay, RotateWebhookSecret, SendTestEvent, UpdateWebhookSubscription,
} from '@fundi/application';

/** The use cases behind the webhook routes. */
export interface WebhookUseCasesForHttp {
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
}
