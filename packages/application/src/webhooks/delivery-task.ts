import { WebhookSubscription, type ClaimedDelivery } from '@fundi/domain/webhooks';
import { purposeOfEvent, type SubscriptionPurpose } from './subscription-purpose.js';
import type { OutgoingWebhook, WebhookDeps } from './webhook-ports.js';

/** A leased delivery, ready to send: `attempt` is the number this try will have. */
export interface DeliveryTask {
  deliveryId: string;
  tenantId: string;
  subscriptionId: string;
  attempt: number;
  webhook: Omit<OutgoingWebhook, 'timestamp'>;
}

/**
 * Opens sealed signing secrets, each once per call of the returned function's owner (a claim or a fan-out opens the
 * same subscription's secret for many deliveries).
 */
export function secretOpener(box: WebhookDeps['box']): (sealed: string) => string {
  const opened = new Map<string, string>();
  return (sealed) => opened.get(sealed) ?? opened.set(sealed, box.open(sealed)).get(sealed)!;
}

/**
 * A leased delivery made ready to send: the body and the subscription's opened signing secrets. A declared
 * purpose's events reach only its subscriptions, in the purpose's body; every other event in the webhook envelope.
 */
export function deliveryTask(
  c: ClaimedDelivery,
  now: Date,
  open: (sealed: string) => string,
  purposes: readonly SubscriptionPurpose[] = [],
): DeliveryTask {
  const { delivery: d, event: e } = c;
  const own = purposeOfEvent(purposes, e.type)?.body;
  const body = own
    ? own(e)
    : JSON.stringify({ id: e.id, type: e.type, timestamp: e.occurredAt, tenantId: e.tenantId, data: e.data });
  return {
    deliveryId: d.id,
    tenantId: d.tenantId,
    subscriptionId: d.subscriptionId,
    attempt: d.attempts + 1,
    webhook: {
      url: c.subscription.url,
      eventId: e.id,
      eventType: e.type,
      body,
      secrets: WebhookSubscription.signingSecrets(c.subscription, now).map(open),
    },
  };
}
