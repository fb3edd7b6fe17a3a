import { newId, type DomainEvent } from '@fundi/domain';
import { PING_EVENT, type DeliverySnapshot, type WebhookSubscriptionSnapshot } from '@fundi/domain/webhooks';

/** The subscriptions that receive `e`: those listing its type, or for `ping` the one subscription it names. */
export function subscribersOf(
  e: DomainEvent,
  subs: readonly WebhookSubscriptionSnapshot[],
): WebhookSubscriptionSnapshot[] {
  if (e.type === PING_EVENT) return subs.filter((s) => s.tenantId === e.tenantId && s.id === e.data.subscriptionId);
  return subs.filter((s) => s.tenantId === e.tenantId && (s.events as string[]).includes(e.type));
}

/** A new delivery of `e` to `s`: due now, or `held` while the subscription is disabled. */
export function newDelivery(
  e: DomainEvent,
  s: Pick<WebhookSubscriptionSnapshot, 'id' | 'enabled'>,
  now: Date,
): DeliverySnapshot {
  const at = now.toISOString();
  return {
    id: newId('dlv', now.getTime()),
    tenantId: e.tenantId,
    subscriptionId: s.id,
    eventId: e.id,
    eventType: e.type,
    status: s.enabled ? 'pending' : 'held',
    attempts: 0,
    nextAttemptAt: s.enabled ? at : null,
    leaseOwner: null,
    leaseUntil: null,
    lastStatusCode: null,
    deliveredAt: null,
    createdAt: at,
  };
}
