import { DomainError, type DomainEvent, type Page, type PageRequest } from '@fundi/domain';
import {
  DUE_STATUSES,
  type AttemptOutcome,
  type ClaimedDelivery,
  type DeliverySnapshot,
  type WebhookDeliveryRepository,
  type WebhookSubscriptionRepository,
  type WebhookSubscriptionSnapshot,
  type WebhookRepos,
} from '@fundi/domain/webhooks';
import type { MemoryPart } from '../common/memory-store.js';
import { pageOf } from '../common/paging.js';
import { InMemoryOutboxFeed } from './in-memory-outbox-feed.js';
import { InMemoryTenantAlertLog } from './in-memory-tenant-alerts.js';
import { InMemoryWebhookAttemptLog } from './in-memory-webhook-log.js';
import { InMemoryWebhookLogRetention } from './in-memory-webhook-retention.js';
import type { WebhookStore, WebhookTables } from './webhook-tables.js';

const clone = <T>(x: T): T => structuredClone(x);

export class InMemoryWebhookSubscriptionRepository implements WebhookSubscriptionRepository {
  constructor(private readonly store: WebhookStore) {}
  private get rows() {
    return this.store.tables.webhookSubscriptions;
  }
  async insert(s: WebhookSubscriptionSnapshot) {
    this.rows.set(s.id, clone(s));
  }
  async update(s: WebhookSubscriptionSnapshot) {
    const cur = this.rows.get(s.id);
    if (!cur || cur.tenantId !== s.tenantId) throw DomainError.notFound('webhook_subscription', s.id);
    this.rows.set(s.id, clone(s));
  }
  async findById(tenantId: string, id: string) {
    const s = this.rows.get(id);
    return s && s.tenantId === tenantId ? clone(s) : null;
  }
  async list(tenantId: string, page: PageRequest): Promise<Page<WebhookSubscriptionSnapshot>> {
    return clone(
      pageOf(
        [...this.rows.values()].filter((s) => s.tenantId === tenantId && s.purpose === 'webhook'),
        page,
      ),
    );
  }
  async listForTenants(tenantIds: readonly string[]) {
    return clone([...this.rows.values()].filter((s) => tenantIds.includes(s.tenantId)));
  }
  async delete(tenantId: string, id: string) {
    const s = this.rows.get(id);
    if (!s || s.tenantId !== tenantId) return false;
    this.rows.delete(id);
    const t = this.store.tables;
    for (const d of [...t.webhookDeliveries.values()]) if (d.subscriptionId === id) t.webhookDeliveries.delete(d.id);
    t.webhookAttempts = t.webhookAttempts.filter((a) => a.subscriptionId !== id);
    return true;
  }
}

export class InMemoryWebhookDeliveryRepository implements WebhookDeliveryRepository {
  constructor(private readonly store: WebhookStore) {}
  private get rows() {
    return this.store.tables.webhookDeliveries;
  }
  private bySubscription(id: string) {
    return [...this.rows.values()].filter((d) => d.subscriptionId === id);
  }
  async insertMany(ds: readonly DeliverySnapshot[]) {
    for (const d of ds) this.rows.set(d.id, clone(d));
  }
  async findById(tenantId: string, subscriptionId: string, id: string) {
    const d = this.rows.get(id);
    return d && d.tenantId === tenantId && d.subscriptionId === subscriptionId ? clone(d) : null;
  }
  async claimDue(owner: string, now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]> {
    const t = this.store.tables;
    const due = [...this.rows.values()]
      .filter(
        (d) =>
          DUE_STATUSES.includes(d.status) &&
          d.nextAttemptAt !== null &&
          d.nextAttemptAt <= now &&
          (!d.leaseUntil || d.leaseUntil < now),
      )
      .sort((a, b) => (a.nextAttemptAt! < b.nextAttemptAt! ? -1 : a.nextAttemptAt! > b.nextAttemptAt! ? 1 : 0))
      .slice(0, limit);
    const out: ClaimedDelivery[] = [];
    for (const d of due) {
      d.leaseOwner = owner;
      d.leaseUntil = leaseUntil;
      const event = t.outbox.find((e) => e.id === d.eventId);
      const s = t.webhookSubscriptions.get(d.subscriptionId);
      if (event && s) out.push(clone({ delivery: d, event, subscription: s }));
    }
    return out;
  }
  async saveOutcomes(owner: string, outcomes: readonly AttemptOutcome[]) {
    for (const { attempt, change } of outcomes) {
      this.store.tables.webhookAttempts.push(clone(attempt));
      const d = this.rows.get(attempt.deliveryId);
      if (d && d.leaseOwner === owner) Object.assign(d, change, { leaseOwner: null, leaseUntil: null });
    }
  }
  async release(owner: string) {
    const mine = [...this.rows.values()].filter((d) => d.leaseOwner === owner);
    for (const d of mine) Object.assign(d, { leaseOwner: null, leaseUntil: null });
    return mine.length;
  }
  async hold(subscriptionId: string) {
    const ds = this.bySubscription(subscriptionId).filter((d) => DUE_STATUSES.includes(d.status));
    for (const d of ds) Object.assign(d, { status: 'held', nextAttemptAt: null });
    return ds.length;
  }
  async requeueUndelivered(subscriptionId: string, now: string) {
    const ds = this.bySubscription(subscriptionId).filter((d) => d.status === 'held' || d.status === 'dead');
    for (const d of ds) Object.assign(d, { status: 'pending', attempts: 0, nextAttemptAt: now });
    return ds.length;
  }
}

export const webhookMemory: MemoryPart<WebhookRepos, WebhookTables, { outbox: DomainEvent[] }> = {
  // The outbox itself belongs to the platform part; this part only reads it.
  tables: () => ({
    dispatched: new Map(),
    webhookSubscriptions: new Map(),
    webhookDeliveries: new Map(),
    webhookAttempts: [],
    tenantAlerts: [],
  }),
  repositories: (store) => ({
    webhookSubscriptions: new InMemoryWebhookSubscriptionRepository(store),
    webhookDeliveries: new InMemoryWebhookDeliveryRepository(store),
    webhookAttempts: new InMemoryWebhookAttemptLog(store),
    outboxFeed: new InMemoryOutboxFeed(store),
    tenantAlerts: new InMemoryTenantAlertLog(store),
    webhookRetention: new InMemoryWebhookLogRetention(store),
  }),
};
