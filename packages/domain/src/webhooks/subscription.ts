import { DomainError } from '../common/errors.js';
import { parseEventTypes, type WebhookEventType } from './events.js';
import { parseWebhookUrl, type UrlPolicy } from './receiver-url.js';
import { SECRET_OVERLAP_MS, signingSecrets, type SubscriptionSecrets } from './signing-secrets.js';

/**
 * The purpose of the subscriptions of the `/webhook-subscriptions` API. Any other purpose is one a capability
 * declares for subscriptions it keeps for itself, invisible to the webhook API (docs/architecture.md, "A
 * capability's anatomy").
 */
export const WEBHOOK_API_PURPOSE = 'webhook';

/** A subscription; its sealed signing secrets are those of `SubscriptionSecrets`. */
export interface WebhookSubscriptionSnapshot extends SubscriptionSecrets {
  id: string;
  tenantId: string;
  /** `webhook` (WEBHOOK_API_PURPOSE), or the name of the purpose a capability declared. */
  purpose: string;
  url: string;
  events: WebhookEventType[];
  enabled: boolean;
  /** Why it is disabled (`delivery_failed`, `disabled_by_api`), `null` while enabled. */
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What a subscription's fields are checked against: the URL rules and the event names subscribers may ask for. */
export interface SubscriptionRules extends UrlPolicy {
  eventTypes: readonly string[];
}

export interface SubscriptionInput {
  url?: unknown;
  events?: unknown;
  enabled?: unknown;
}

export const WebhookSubscription = {
  /** Validates the caller's fields; the secret is sealed by the caller, which alone holds the SecretBox. */
  create(
    input: SubscriptionInput,
    ctx: { id: string; tenantId: string; secretCiphertext: string; now: Date; policy: SubscriptionRules },
  ): WebhookSubscriptionSnapshot {
    const enabled = input.enabled === undefined ? true : parseEnabled(input.enabled);
    const at = ctx.now.toISOString();
    return {
      id: ctx.id,
      tenantId: ctx.tenantId,
      purpose: WEBHOOK_API_PURPOSE,
      url: parseWebhookUrl(input.url, ctx.policy),
      events: parseEventTypes(input.events, ctx.policy.eventTypes),
      enabled,
      secretCiphertext: ctx.secretCiphertext,
      previousSecretCiphertext: null,
      previousSecretExpiresAt: null,
      disabledReason: enabled ? null : 'disabled_by_api',
      createdAt: at,
      updatedAt: at,
    };
  },

  /** The subscription with the given fields changed; `enabled` is applied by `setEnabled`, not here. */
  update(
    s: WebhookSubscriptionSnapshot,
    input: SubscriptionInput,
    now: Date,
    policy: SubscriptionRules,
  ): WebhookSubscriptionSnapshot {
    return {
      ...s,
      ...(input.url !== undefined ? { url: parseWebhookUrl(input.url, policy) } : {}),
      ...(input.events !== undefined ? { events: parseEventTypes(input.events, policy.eventTypes) } : {}),
      updatedAt: now.toISOString(),
    };
  },

  /**
   * A subscription a capability keeps for itself under its declared purpose: that purpose's events only. The URL
   * was checked by the caller.
   */
  forPurpose(
    purpose: { name: string; events: readonly WebhookEventType[] },
    ctx: {
      id: string;
      tenantId: string;
      url: string;
      enabled: boolean;
      secretCiphertext: string;
      now: Date;
    },
  ): WebhookSubscriptionSnapshot {
    const at = ctx.now.toISOString();
    return {
      id: ctx.id,
      tenantId: ctx.tenantId,
      purpose: purpose.name,
      url: ctx.url,
      events: [...purpose.events],
      enabled: ctx.enabled,
      secretCiphertext: ctx.secretCiphertext,
      previousSecretCiphertext: null,
      previousSecretExpiresAt: null,
      disabledReason: ctx.enabled ? null : 'disabled_by_api',
      createdAt: at,
      updatedAt: at,
    };
  },

  /** A new receiver URL (already checked by the caller). */
  retarget(s: WebhookSubscriptionSnapshot, url: string, now: Date): WebhookSubscriptionSnapshot {
    return { ...s, url, updatedAt: now.toISOString() };
  },

  setEnabled(
    s: WebhookSubscriptionSnapshot,
    enabled: boolean,
    reason: string | null,
    now: Date,
  ): WebhookSubscriptionSnapshot {
    return { ...s, enabled, disabledReason: enabled ? null : reason, updatedAt: now.toISOString() };
  },

  rotate(s: WebhookSubscriptionSnapshot, newCiphertext: string, now: Date): WebhookSubscriptionSnapshot {
    return {
      ...s,
      secretCiphertext: newCiphertext,
      previousSecretCiphertext: s.secretCiphertext,
      previousSecretExpiresAt: new Date(now.getTime() + SECRET_OVERLAP_MS).toISOString(),
      updatedAt: now.toISOString(),
    };
  },

  signingSecrets,
};

export function parseEnabled(value: unknown, field = 'enabled'): boolean {
  if (typeof value !== 'boolean') throw DomainError.invalid(field, 'must be true or false');
  return value;
}
