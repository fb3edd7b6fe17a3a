import { newId, type PlatformRepos } from '@fundi/domain';
import { MAX_ATTEMPTS, WEBHOOK_API_PURPOSE, type WebhookRepos } from '@fundi/domain/webhooks';
import type { DeliveryTask } from './delivery-task.js';
import { switchSubscription } from './enablement.js';
import type { SubscriptionPurpose } from './subscription-purpose.js';
import { systemActor } from './webhook-ports.js';

/**
 * The 5th failed attempt of an event disables the subscription and tells the tenant's administrators: an alert in
 * the words of the subscription's purpose, and for the webhook API's own subscriptions the internal event the
 * admins' "webhook disabled" notification reacts to.
 */
export async function disableAfterFailures(
  tx: WebhookRepos & PlatformRepos,
  task: Pick<DeliveryTask, 'tenantId' | 'subscriptionId' | 'webhook'>,
  now: Date,
  purposes: readonly SubscriptionPurpose[],
): Promise<void> {
  const s = await tx.webhookSubscriptions.findById(task.tenantId, task.subscriptionId);
  if (!s?.enabled) return;
  await switchSubscription(tx, systemActor(s.tenantId), s, false, 'delivery_failed', now);
  const eventId = task.webhook.eventId;
  const declared = purposes.find((p) => p.name === s.purpose);
  if (s.purpose === WEBHOOK_API_PURPOSE)
    await tx.outbox.add({
      id: newId('evt'),
      tenantId: s.tenantId,
      type: 'webhook.subscription_disabled',
      occurredAt: now.toISOString(),
      data: { subscriptionId: s.id, url: s.url },
    });
  const alert = declared?.disabledAlert(s, eventId, MAX_ATTEMPTS) ?? {
    kind: 'webhook_subscription_disabled',
    message:
      `Webhook subscription ${s.id} (${s.url}) was disabled: event ${eventId} failed ${MAX_ATTEMPTS} delivery attempts. ` +
      'Fix the receiver, then POST /webhook-subscriptions/{id}/enable; undelivered events are sent again.',
  };
  await tx.tenantAlerts.add({
    id: newId('alr', now.getTime()),
    tenantId: s.tenantId,
    createdAt: now.toISOString(),
    readAt: null,
    ...alert,
  });
}
