import { DomainError } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { requireSubscription } from './subscription-view.js';
import type { WebhookDeps } from './webhook-ports.js';

/** Deletes a subscription with its pending deliveries and its delivery log. */
export class DeleteWebhookSubscription {
  constructor(private readonly deps: WebhookDeps) {}

  async execute(actor: Actor, id: string): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.uow.run(async (tx) => {
      await requireSubscription(tx, actor.tenantId, id, this.deps.purpose);
      if (!(await tx.webhookSubscriptions.delete(actor.tenantId, id)))
        throw DomainError.notFound('webhook_subscription', id);
      await recordChange(tx, actor, now, {
        action: 'webhook_subscription.deleted',
        resourceType: 'webhook_subscription',
        resourceId: id,
      });
    });
  }
}
