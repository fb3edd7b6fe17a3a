import { jobType } from '../jobs/job-definition.js';
import type { SecretBox, PlatformRepos } from '@fundi/domain';
import type { AttemptResult, SubscriptionRules, WebhookRepos } from '@fundi/domain/webhooks';
import type { CoreDeps } from '../common/ports.js';
import type { EventExpansion } from './event-expansion.js';
import type { SubscriptionPurpose } from './subscription-purpose.js';

/** One signed POST to make. */
export interface OutgoingWebhook {
  url: string;
  eventId: string;
  eventType: string;
  /** Unix seconds of this attempt (the Standard Webhooks `webhook-timestamp`). */
  timestamp: number;
  /** The raw JSON envelope, signed exactly as sent. */
  body: string;
  /** Plaintext secrets that sign it: the current one first, then the previous one during its overlap. */
  secrets: readonly string[];
}

/**
 * Port: signs a webhook (docs/webhooks.md) and POSTs it. Never throws: a refused address, connection error, timeout or
 * redirect comes back as a result with `error` set. Success is any 2xx within the timeout.
 */
export interface WebhookTransport {
  send(w: OutgoingWebhook): Promise<AttemptResult>;
  /** The longest one attempt may take (the worker keeps a claimed delivery only while its lease outlasts this). */
  readonly timeoutMs?: number;
}

/** What the webhook use cases need beyond the core: the box that seals secrets and the URL rule. */
export interface WebhookDeps extends CoreDeps<WebhookRepos & PlatformRepos> {
  box: SecretBox;
  /** The URL rule and the event names a subscription may ask for. */
  policy: SubscriptionRules;
  /**
   * Checks where a receiver URL points when it is set: throws DomainError invalid on `url` for a private,
   * loopback, link-local or reserved address (literal, or what the host name resolves to now). Delivery checks
   * again at connect time, since DNS can change.
   */
  receiverCheck(url: string): Promise<void>;
  /**
   * Which subscriptions these use cases manage: `webhook` (default, the webhook API's), or the name of a purpose a
   * capability declared, which reuses them for its own subscriptions. Another purpose's subscription is not found.
   */
  purpose?: string;
  /**
   * The purposes capabilities declared (`offers.subscriptionPurpose`): the bodies of their events' deliveries and
   * the alerts when their subscriptions are disabled. None: every subscription is the webhook API's.
   */
  purposes?: readonly SubscriptionPurpose[];
  /** Compact event types and how they become public events (event-expansion.ts). */
  expansions?: readonly EventExpansion[];
}

export { systemActor } from '../common/actor.js';

/** The job that re-queues a subscription's events since a time (`POST .../replay`). */
export interface ReplaySincePayload {
  tenantId: string;
  subscriptionId: string;
  since: string;
}

export const REPLAY_SINCE = jobType<ReplaySincePayload>('webhooks.replay_since', 'short');
