import type { DomainEvent } from '../events/outbox.js';
import type { Page, PageRequest } from '../common/paging.js';
import type { AttemptSnapshot, DeliveryChange, DeliverySnapshot } from './delivery.js';
import type { OutboxFeed } from './outbox-feed.js';
import type { WebhookSubscriptionSnapshot } from './subscription.js';
import type { TenantAlertLog } from './tenant-alerts.js';

/** Port: webhook subscriptions. Tenant-scoped reads treat another tenant's subscription as absent. */
export interface WebhookSubscriptionRepository {
  insert(s: WebhookSubscriptionSnapshot): Promise<void>;
  /** Replaces the stored subscription; throws not_found when absent. */
  update(s: WebhookSubscriptionSnapshot): Promise<void>;
  findById(tenantId: string, id: string): Promise<WebhookSubscriptionSnapshot | null>;
  /** The tenant's `webhook`-purpose subscriptions (not the HR one), ordered by id (creation order). */
  list(tenantId: string, page: PageRequest): Promise<Page<WebhookSubscriptionSnapshot>>;
  /** Every subscription (enabled or not) of the given tenants, for fan-out. */
  listForTenants(tenantIds: readonly string[]): Promise<WebhookSubscriptionSnapshot[]>;
  /** Removes the subscription with its deliveries and attempt log; false when there was none. */
  delete(tenantId: string, id: string): Promise<boolean>;
}

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  delivery: DeliverySnapshot;
  event: DomainEvent;
  subscription: Pick<
    WebhookSubscriptionSnapshot,
    'url' | 'enabled' | 'secretCiphertext' | 'previousSecretCiphertext' | 'previousSecretExpiresAt'
  >;
}

/** One finished attempt: its log entry and the delivery's state after it. */
export interface AttemptOutcome {
  attempt: AttemptSnapshot;
  change: DeliveryChange;
}

/**
 * Port: the deliveries owed, and their leases. `claimDue` and `saveOutcomes` are atomic on their own, so the
 * worker calls them on the repositories at large (on Postgres each is one statement, no BEGIN/COMMIT round trips)
 * or inside a transaction when more must commit with them.
 */
export interface WebhookDeliveryRepository {
  insertMany(deliveries: readonly DeliverySnapshot[]): Promise<void>;
  findById(tenantId: string, subscriptionId: string, id: string): Promise<DeliverySnapshot | null>;
  /**
   * Leases up to `limit` due deliveries (status pending/failed, `nextAttemptAt <= now`, no unexpired lease) to
   * `owner` until `leaseUntil`, earliest due first. Concurrent callers never receive the same delivery while its
   * lease holds (Postgres: FOR UPDATE SKIP LOCKED).
   */
  claimDue(owner: string, now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]>;
  /**
   * Logs every attempt, and applies each change to its delivery (`attempt.deliveryId`) where `owner` still holds
   * the lease, clearing it. A lost lease keeps the log entry: the attempt did happen.
   */
  saveOutcomes(owner: string, outcomes: readonly AttemptOutcome[]): Promise<void>;
  /** Gives back every lease of `owner` (graceful shutdown): the work is due again for anyone. */
  release(owner: string): Promise<number>;
  /** Disable: every pending/failed delivery of the subscription becomes held. */
  hold(subscriptionId: string): Promise<number>;
  /** Enable: every undelivered delivery of the subscription is due at `now` with a fresh schedule. */
  requeueUndelivered(subscriptionId: string, now: string): Promise<number>;
}

/** Port: the attempt log (every attempt of every delivery), written by `WebhookDeliveryRepository.saveOutcomes`. */
export interface WebhookAttemptLog {
  /** Newest first: a cursor page continues below `after`. */
  list(tenantId: string, subscriptionId: string, page: PageRequest): Promise<Page<AttemptSnapshot>>;
  /**
   * Erasure: clears the response excerpt of every attempt of the tenant's `eventIds` (a receiver may echo the
   * payload it got); the attempt rows stay. Returns how many attempts were changed.
   */
  forgetResponses(tenantId: string, eventIds: readonly string[]): Promise<number>;
}

/**
 * Port: retention of the webhook log (docs/architecture.md, "Retention"). Each method deletes at most `limit` rows,
 * oldest first, in one statement, and returns how many; 0 means nothing is left to prune before `before`.
 */
export interface WebhookLogRetention {
  /** Attempt log entries made before `before`. */
  pruneAttempts(before: string, limit: number): Promise<number>;
  /** Delivered or dead deliveries created before `before`; pending, failed and held ones stay. */
  pruneDeliveries(before: string, limit: number): Promise<number>;
  /**
   * Events that occurred before `before`, already fanned out, and owed to no receiver (no pending, failed or held
   * delivery): an event still to dispatch or deliver stays whatever its age.
   */
  pruneEvents(before: string, limit: number): Promise<number>;
  /** Entries of the queue of events to fan out whose event no longer exists. */
  prunePendingLeftovers(limit: number): Promise<number>;
}

/** The webhooks capability's repositories. */
export interface WebhookRepos {
  webhookSubscriptions: WebhookSubscriptionRepository;
  webhookDeliveries: WebhookDeliveryRepository;
  webhookAttempts: WebhookAttemptLog;
  outboxFeed: OutboxFeed;
  tenantAlerts: TenantAlertLog;
  webhookRetention: WebhookLogRetention;
}
