import { newId } from '@fundi/domain';
import { PING_EVENT } from '@fundi/domain/webhooks';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { requireEnabled, requireSubscription } from './subscription-view.js';
import type { WebhookDeps } from './webhook-ports.js';

export interface QueuedEvent {
  eventId: string;
  type: typeof PING_EVENT;
  status: 'queued';
}

/**
 * Queues a `ping` event for this subscription alone; it travels the same outbox, signing and retry path as every
 * other event. 409 while the subscription is disabled.
 */
export class SendTestEvent {
  constructor(private readonly deps: WebhookDeps) {}

  async execute(actor: Actor, id: string): Promise<QueuedEvent> {
    const now = this.deps.clock.now();
    const event = {
      id: newId('evt', now.getTime()),
      tenantId: actor.tenantId,
      type: PING_EVENT,
      occurredAt: now.toISOString(),
      data: { subscriptionId: id, message: 'Test event from Fundi' },
    };
    await this.deps.uow.run(async (tx) => {
      requireEnabled(await requireSubscription(tx, actor.tenantId, id, this.deps.purpose));
      await tx.outbox.add(event);
      await recordChange(tx, actor, now, {
        action: 'webhook_subscription.test_sent',
        resourceType: 'webhook_subscription',
        resourceId: id,
        details: { eventId: event.id },
      });
    });
    return { eventId: event.id, type: PING_EVENT, status: 'queued' };
  }
}
