import { type DomainEvent, newId } from '@fundi/domain';
import type {
  AttemptOutcome,
  DeliveryChange,
  DeliverySnapshot,
  WebhookSubscriptionSnapshot,
} from '@fundi/domain/webhooks';
import type { TestStorage } from '../testing/test-databases.js';

/** Shared fixtures of the webhook repository contract suites (webhook-*.test.ts, worker-jobs.test.ts). */
export const T0 = '2026-06-01T08:00:00.000Z';
export const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();

export const aSubscription = (
  tenantId: string,
  over: Partial<WebhookSubscriptionSnapshot> = {},
): WebhookSubscriptionSnapshot => ({
  id: newId('whs'),
  tenantId,
  purpose: 'webhook',
  url: 'https://hooks.example.com/x',
  events: ['learner.created'],
  enabled: true,
  secretCiphertext: 'v1.sealed',
  previousSecretCiphertext: null,
  previousSecretExpiresAt: null,
  disabledReason: null,
  createdAt: T0,
  updatedAt: T0,
  ...over,
});
export const anEvent = (tenantId: string, over: Partial<DomainEvent> = {}): DomainEvent => ({
  id: newId('evt'),
  tenantId,
  type: 'learner.created',
  occurredAt: T0,
  data: { n: 1 },
  ...over,
});
export const aDelivery = (
  e: DomainEvent,
  s: WebhookSubscriptionSnapshot,
  over: Partial<DeliverySnapshot> = {},
): DeliverySnapshot => ({
  id: newId('dlv'),
  tenantId: e.tenantId,
  subscriptionId: s.id,
  eventId: e.id,
  eventType: e.type,
  status: 'pending',
  attempts: 0,
  nextAttemptAt: T0,
  leaseOwner: null,
  leaseUntil: null,
  lastStatusCode: null,
  deliveredAt: null,
  createdAt: T0,
  ...over,
});

/** An attempt outcome for `d`: its log entry and the change `change` (the attempt number is `change.attempts`). */
export const outcome = (d: DeliverySnapshot, change: DeliveryChange): AttemptOutcome => ({
  change,
  attempt: {
    id: newId('wha'),
    deliveryId: d.id,
    tenantId: d.tenantId,
    subscriptionId: d.subscriptionId,
    eventId: d.eventId,
    eventType: d.eventType,
    attempt: change.attempts,
    at: T0,
    statusCode: change.lastStatusCode,
    latencyMs: 3,
    error: change.status === 'delivered' ? null : 'HTTP 500',
    responseExcerpt: null,
  },
});

/** Seeding and claiming deliveries in the store `get()` returns. */
export function deliveryHelpers(get: () => TestStorage) {
  /** A subscription with `n` due deliveries of fresh events. */
  async function seed(n: number, over: Partial<DeliverySnapshot> = {}) {
    const { uow } = get();
    const tenant = newId('ten');
    const s = aSubscription(tenant);
    const events = Array.from({ length: n }, () => anEvent(tenant));
    const ds = events.map((e) => aDelivery(e, s, over));
    await uow.run(async (tx) => {
      await tx.webhookSubscriptions.insert(s);
      for (const e of events) await tx.outbox.add(e);
      await tx.webhookDeliveries.insertMany(ds);
    });
    return { tenant, s, events, ds };
  }
  const claim = (owner: string, now: string, limit = 100, leaseMs = 30_000) =>
    get().uow.run((tx) =>
      tx.webhookDeliveries.claimDue(owner, now, at(Date.parse(now) - Date.parse(T0) + leaseMs), limit),
    );
  return { seed, claim };
}
