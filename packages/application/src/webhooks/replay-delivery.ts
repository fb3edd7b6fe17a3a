import { DomainError } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { newDelivery } from './fan-out.js';
import { requireEnabled, requireSubscription } from './subscription-view.js';
import type { WebhookDeps } from './webhook-ports.js';

export interface ReplayedDelivery {
  deliveryId: string;
  eventId: string;
  eventType: string;
  status: 'pending';
}

/** Queues the event of one delivery again, as a fresh delivery (same event id, new schedule). */
export class ReplayDelivery {
  constructor(private readonly deps: WebhookDeps) {}

  async execute(actor: Actor, subscriptionId: string, deliveryId: string): Promise<ReplayedDelivery> {
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const s = await requireSubscription(tx, actor.tenantId, subscriptionId, this.deps.purpose);
      const old = await tx.webhookDeliveries.findById(actor.tenantId, subscriptionId, deliveryId);
      if (!old) throw DomainError.notFound('delivery', deliveryId);
      requireEnabled(s);
      const event = await tx.outboxFeed.findById(actor.tenantId, old.eventId);
      if (!event) throw DomainError.notFound('event', old.eventId);
      const d = newDelivery(event, s, now);
      await tx.webhookDeliveries.insertMany([d]);
      await recordChange(tx, actor, now, {
        action: 'webhook_delivery.replayed',
        resourceType: 'webhook_subscription',
        resourceId: subscriptionId,
        details: { deliveryId, newDeliveryId: d.id, eventId: event.id },
      });
      return { deliveryId: d.id, eventId: event.id, eventType: event.type, status: 'pending' as const };
    });
  }
}
