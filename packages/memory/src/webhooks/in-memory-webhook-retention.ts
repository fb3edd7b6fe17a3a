import type { DeliverySnapshot, WebhookLogRetention } from '@fundi/domain/webhooks';
import type { WebhookStore } from './webhook-tables.js';

const settled = (d: DeliverySnapshot) => d.status === 'delivered' || d.status === 'dead';

/** The webhook log's retention over the in-memory tables (the SQL rules: docs/architecture.md, "Retention"). */
export class InMemoryWebhookLogRetention implements WebhookLogRetention {
  constructor(private readonly store: WebhookStore) {}

  async pruneAttempts(before: string, limit: number) {
    const t = this.store.tables;
    const gone = new Set(
      t.webhookAttempts
        .filter((a) => a.at < before)
        .sort((a, b) => (a.at < b.at ? -1 : 1))
        .slice(0, limit),
    );
    t.webhookAttempts = t.webhookAttempts.filter((a) => !gone.has(a));
    return gone.size;
  }

  async pruneDeliveries(before: string, limit: number) {
    const rows = this.store.tables.webhookDeliveries;
    const gone = [...rows.values()]
      .filter((d) => settled(d) && d.createdAt < before)
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1))
      .slice(0, limit);
    for (const d of gone) rows.delete(d.id);
    return gone.length;
  }

  async pruneEvents(before: string, limit: number) {
    const t = this.store.tables;
    const owed = new Set([...t.webhookDeliveries.values()].filter((d) => !settled(d)).map((d) => d.eventId));
    const gone = new Set(
      t.outbox
        .filter((e) => e.occurredAt < before && t.dispatched.has(e.id) && !owed.has(e.id))
        .sort((a, b) => (a.occurredAt < b.occurredAt ? -1 : 1))
        .slice(0, limit)
        .map((e) => e.id),
    );
    t.outbox = t.outbox.filter((e) => !gone.has(e.id));
    for (const id of gone) t.dispatched.delete(id);
    return gone.size;
  }

  async prunePendingLeftovers(_limit: number) {
    // Memory keeps no queue of its own: an event is to fan out while it is not marked dispatched.
    return 0;
  }
}
