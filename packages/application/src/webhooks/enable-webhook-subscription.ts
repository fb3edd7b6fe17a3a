import type { Actor } from '../common/actor.js';
import { switchSubscription } from './enablement.js';
import { requireSubscription, subscriptionView, type WebhookSubscriptionView } from './subscription-view.js';
import type { WebhookDeps } from './webhook-ports.js';

/** Re-enables a disabled subscription; everything undelivered becomes due again (see switchSubscription). */
export class EnableWebhookSubscription {
  constructor(private readonly deps: WebhookDeps) {}

  async execute(actor: Actor, id: string): Promise<WebhookSubscriptionView & { requeued: number }> {
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const stored = await requireSubscription(tx, actor.tenantId, id, this.deps.purpose);
      const { subscription, requeued } = await switchSubscription(tx, actor, stored, true, null, now);
      return { ...subscriptionView(subscription), requeued };
    });
  }
}
