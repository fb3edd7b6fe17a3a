import { WebhookSubscription, parseEnabled, parseWebhookUrl, type SubscriptionInput } from '@fundi/domain/webhooks';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { switchSubscription } from './enablement.js';
import { requireSubscription, subscriptionView, type WebhookSubscriptionView } from './subscription-view.js';
import type { WebhookDeps } from './webhook-ports.js';

/** Changes url, events and/or enabled; switching `enabled` follows the same rule as enable/disable. */
export class UpdateWebhookSubscription {
  constructor(private readonly deps: WebhookDeps) {}

  async execute(actor: Actor, id: string, input: SubscriptionInput): Promise<WebhookSubscriptionView> {
    const now = this.deps.clock.now();
    const enabled = input.enabled === undefined ? undefined : parseEnabled(input.enabled);
    if (input.url !== undefined) await this.deps.receiverCheck(parseWebhookUrl(input.url, this.deps.policy));
    return this.deps.uow.run(async (tx) => {
      const stored = await requireSubscription(tx, actor.tenantId, id, this.deps.purpose);
      let s = WebhookSubscription.update(stored, input, now, this.deps.policy);
      await tx.webhookSubscriptions.update(s);
      await recordChange(tx, actor, now, {
        action: 'webhook_subscription.updated',
        resourceType: 'webhook_subscription',
        resourceId: id,
        details: { fields: Object.keys(input).filter((k) => (input as Record<string, unknown>)[k] !== undefined) },
      });
      if (enabled !== undefined)
        s = (await switchSubscription(tx, actor, s, enabled, 'disabled_by_api', now)).subscription;
      return subscriptionView(s);
    });
  }
}
