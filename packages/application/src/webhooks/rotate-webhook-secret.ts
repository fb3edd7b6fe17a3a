import { WebhookSubscription, generateWebhookSecret, parseWebhookSecret } from '@fundi/domain/webhooks';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { WebhookSubscriptionWithSecret } from './subscription-view.js';
import { requireSubscription, subscriptionView } from './subscription-view.js';
import type { WebhookDeps } from './webhook-ports.js';

/**
 * New signing secret (given, or generated). For 24 h the previous secret keeps signing beside it, so receivers can
 * switch without losing events. The new secret is shown this once.
 */
export class RotateWebhookSecret {
  constructor(private readonly deps: WebhookDeps) {}

  async execute(actor: Actor, id: string, input: { secret?: unknown }): Promise<WebhookSubscriptionWithSecret> {
    const now = this.deps.clock.now();
    const secret = input.secret === undefined ? generateWebhookSecret() : parseWebhookSecret(input.secret);
    return this.deps.uow.run(async (tx) => {
      const s = WebhookSubscription.rotate(
        await requireSubscription(tx, actor.tenantId, id, this.deps.purpose),
        this.deps.box.seal(secret),
        now,
      );
      await tx.webhookSubscriptions.update(s);
      await recordChange(tx, actor, now, {
        action: 'webhook_subscription.secret_rotated',
        resourceType: 'webhook_subscription',
        resourceId: id,
        details: { previousSecretExpiresAt: s.previousSecretExpiresAt },
      });
      return { ...subscriptionView(s), secret };
    });
  }
}
