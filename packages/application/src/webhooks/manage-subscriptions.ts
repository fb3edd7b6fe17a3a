import { DomainError, newId } from '@fundi/domain';
import {
  WebhookSubscription,
  generateWebhookSecret,
  parseEnabled,
  parseWebhookSecret,
  parseWebhookUrl,
  type SubscriptionInput,
} from '@fundi/domain/webhooks';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { switchSubscription } from './enablement.js';
import { requireSubscription, subscriptionView, type WebhookSubscriptionView } from './subscription-view.js';
import type { WebhookDeps } from './webhook-ports.js';

/** The view plus the signing secret, returned only by create and rotate. */
export type WebhookSubscriptionWithSecret = WebhookSubscriptionView & { secret: string };

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
