import type { DomainEvent } from '@fundi/domain';
import type { WebhookEventType } from '@fundi/domain/webhooks';

/**
 * A purpose a capability declares for webhook subscriptions it keeps for itself (docs/architecture.md, "A
 * capability's anatomy"): the webhook API neither lists nor finds them, they carry only the purpose's events (which
 * no API subscription may ask for), and the webhooks' delivery machinery sends them, in the purpose's body, and
 * tells the tenant in the purpose's words when their deliveries stop.
 */
export interface SubscriptionPurpose {
  /** Stored as the subscription's `purpose`; never `webhook`, the webhook API's own. */
  name: string;
  /** The events its subscriptions carry. */
  events: readonly WebhookEventType[];
  /** The body of a delivery of one of its events (the webhook envelope, docs/webhooks.md, when absent). */
  body?(e: Pick<DomainEvent, 'id' | 'type' | 'occurredAt' | 'tenantId' | 'data'>): string;
  /** The tenant alert when failed deliveries have disabled a subscription of this purpose. */
  disabledAlert(s: { id: string; url: string }, eventId: string, attempts: number): { kind: string; message: string };
}

/** The purpose whose events include `type`, if any. */
export function purposeOfEvent(
  purposes: readonly SubscriptionPurpose[],
  type: string,
): SubscriptionPurpose | undefined {
  return purposes.find((p) => p.events.includes(type));
}
