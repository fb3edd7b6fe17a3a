import type { ListDeliveryAttempts } from '../webhooks/list-delivery-attempts.js';
import type { ReplayDelivery } from '../webhooks/replay-delivery.js';
import type { RotateWebhookSecret } from '../webhooks/rotate-webhook-secret.js';

/**
 * The outbound side runs on the webhook machinery: these are the webhook use cases over the tenant's HR
 * subscription (purpose `hr_sync`).
 */
export interface HrOutboundUseCases {
  listAttempts: ListDeliveryAttempts;
  replayDelivery: ReplayDelivery;
  rotateSecret: RotateWebhookSecret;
}
