/**
 * One event owed to one subscription. `pending`: due at `nextAttemptAt` (never tried, or re-queued);
 * `failed`: the last attempt failed and the next is due at `nextAttemptAt`; `held`: the subscription is disabled,
 * nothing is due until it is enabled again; `delivered`: a 2xx was received; `dead`: the 5th attempt failed.
 */
export type DeliveryStatus = 'pending' | 'failed' | 'held' | 'delivered' | 'dead';

/** Statuses a worker may claim (when due). */
export const DUE_STATUSES: readonly DeliveryStatus[] = ['pending', 'failed'];
/** Statuses that `enable` makes due again: everything not delivered. */
export const UNDELIVERED_STATUSES: readonly DeliveryStatus[] = ['pending', 'failed', 'held', 'dead'];

export interface DeliverySnapshot {
  id: string;
  tenantId: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  /** Attempts made so far. */
  attempts: number;
  /** When the next attempt is due (pending, failed); `null` when nothing is due. */
  nextAttemptAt: string | null;
  leaseOwner: string | null;
  leaseUntil: string | null;
  lastStatusCode: number | null;
  deliveredAt: string | null;
  createdAt: string;
}

/** One HTTP attempt, kept for the delivery log (`GET .../deliveries`). */
export interface AttemptSnapshot {
  id: string;
  deliveryId: string;
  tenantId: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  /** 1-based. */
  attempt: number;
  at: string;
  /** `null` when no response arrived (refused, timeout, blocked address). */
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** The first 1 KB of the response body. */
  responseExcerpt: string | null;
}

/**
 * The delivery schedule (docs/webhooks.md): attempt 1 at once, then 5 min, 30 min, 2 h and 24 h after the
 * previous failure. The array holds the delay before attempt n+1, indexed by n-1.
 */
export const RETRY_DELAYS_MS: readonly number[] = [5 * 60_000, 30 * 60_000, 2 * 3_600_000, 24 * 3_600_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

export interface AttemptResult {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
}

/** Success is any 2xx; a redirect, another status or no response is a failure. */
export function isSuccess(r: Pick<AttemptResult, 'statusCode' | 'error'>): boolean {
  return r.error === null && r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;
}

export type DeliveryChange = Pick<
  DeliverySnapshot,
  'status' | 'attempts' | 'nextAttemptAt' | 'lastStatusCode' | 'deliveredAt'
>;

/** The delivery's state after attempt number `attempt` ended with `r` at `now`. */
export function afterAttempt(attempt: number, r: AttemptResult, now: Date): DeliveryChange {
  const base = { attempts: attempt, lastStatusCode: r.statusCode };
  if (isSuccess(r)) return { ...base, status: 'delivered', nextAttemptAt: null, deliveredAt: now.toISOString() };
  if (attempt >= MAX_ATTEMPTS) return { ...base, status: 'dead', nextAttemptAt: null, deliveredAt: null };
  const delay = RETRY_DELAYS_MS[attempt - 1]!;
  return { ...base, status: 'failed', nextAttemptAt: new Date(now.getTime() + delay).toISOString(), deliveredAt: null };
}
