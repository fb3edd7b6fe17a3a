import { newId } from '@fundi/domain';
import {
  WebhookSubscription,
  generateWebhookSecret,
  parseWebhookSecret,
  type SubscriptionInput,
} from '@fundi/domain/webhooks';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { subscriptionView } from './subscription-view.js';
import type { WebhookDeps } from './webhook-ports.js';
import type { WebhookSubscriptionWithSecret } from './subscription-view.js';

/** Creates a subscription; without a `secret` one is generated (`whsec_...`). The secret is shown this once. */
export class CreateWebhookSubscription {
  constructor(private readonly deps: WebhookDeps) {}

  async execute(actor: Actor, input: SubscriptionInput & { secret?: unknown }): Promise<WebhookSubscriptionWithSecret> {
    const now = this.deps.clock.now();
    const secret = input.secret === undefined ? generateWebhookSecret() : parseWebhookSecret(input.secret);
    const s = WebhookSubscription.create(input, {
      id: newId('whs', now.getTime()),
      tenantId: actor.tenantId,
      secretCiphertext: this.deps.box.seal(secret),
      now,
      policy: this.deps.policy,
    });
    await this.deps.receiverCheck(s.url);
    await this.deps.uow.run(async (tx) => {
      await tx.webhookSubscriptions.insert(s);
      await recordChange(tx, actor, now, {
        action: 'webhook_subscription.created',
        resourceType: 'webhook_subscription',
        resourceId: s.id,
        details: { events: s.events, enabled: s.enabled, secretGenerated: input.secret === undefined },
      });
    });
    return { ...subscriptionView(s), secret };
  }
}
