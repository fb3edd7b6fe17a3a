import { WebhookSubscription, type WebhookSubscriptionSnapshot } from '@fundi/domain/webhooks';
import type { Actor } from '../common/actor.js';
import type { PlatformRepos } from '@fundi/domain';
import type { WebhookRepos } from '@fundi/domain/webhooks';
import { recordChange } from '../common/record-change.js';

/**
 * The one rule for switching a subscription (docs/webhooks.md): disabling holds every
 * pending or failed delivery (no attempts while disabled; new events arrive as `held`); enabling makes every
 * undelivered delivery (held, dead, pending, failed) due now with a fresh five-attempt schedule.
 */
export async function switchSubscription(
  tx: WebhookRepos & PlatformRepos,
  actor: Actor,
  s: WebhookSubscriptionSnapshot,
  enabled: boolean,
  reason: string | null,
  now: Date,
): Promise<{ subscription: WebhookSubscriptionSnapshot; requeued: number }> {
  if (s.enabled === enabled) return { subscription: s, requeued: 0 };
  const next = WebhookSubscription.setEnabled(s, enabled, reason, now);
  await tx.webhookSubscriptions.update(next);
  let requeued = 0;
  if (enabled) requeued = await tx.webhookDeliveries.requeueUndelivered(s.id, now.toISOString());
  else await tx.webhookDeliveries.hold(s.id);
  await recordChange(tx, actor, now, {
    action: enabled ? 'webhook_subscription.enabled' : 'webhook_subscription.disabled',
    resourceType: 'webhook_subscription',
    resourceId: s.id,
    details: enabled ? { requeued } : { reason },
  });
  return { subscription: next, requeued };
}
