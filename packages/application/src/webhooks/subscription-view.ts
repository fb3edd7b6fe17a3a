import { DomainError } from '@fundi/domain';
import { WEBHOOK_API_PURPOSE, type WebhookSubscriptionSnapshot } from '@fundi/domain/webhooks';
import type { WebhookRepos } from '@fundi/domain/webhooks';

/** A subscription as callers see it: never its secret (shown once, on create and on rotation). */
export interface WebhookSubscriptionView {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  /** Until then the previous secret still signs beside the current one; `null` when no rotation overlaps. */
  previousSecretExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function subscriptionView(s: WebhookSubscriptionSnapshot): WebhookSubscriptionView {
  const { id, url, events, enabled, disabledReason, previousSecretExpiresAt, createdAt, updatedAt } = s;
  return { id, url, events: [...events], enabled, disabledReason, previousSecretExpiresAt, createdAt, updatedAt };
}

/**
 * The tenant's subscription of the given purpose or not_found (another tenant's, or a subscription a capability keeps
 * for itself asked for through the webhook API, is the same 404).
 */
export async function requireSubscription(
  repos: Pick<WebhookRepos, 'webhookSubscriptions'>,
  tenantId: string,
  id: string,
  purpose: string = WEBHOOK_API_PURPOSE,
): Promise<WebhookSubscriptionSnapshot> {
  const s = await repos.webhookSubscriptions.findById(tenantId, id);
  if (!s || s.purpose !== purpose) throw DomainError.notFound('webhook_subscription', id);
  return s;
}

/** Test events and replays go nowhere while a subscription is disabled: enable it first. */
export function requireEnabled(s: WebhookSubscriptionSnapshot): void {
  if (!s.enabled) {
    throw DomainError.conflict(
      'subscription_disabled',
      'The subscription is disabled; enable it first (POST .../enable)',
      [],
      { disabledReason: s.disabledReason },
    );
  }
}

/** The view plus the signing secret, returned only by create and rotate. */
export type WebhookSubscriptionWithSecret = WebhookSubscriptionView & { secret: string };
