import type { DomainEvent } from '@fundi/domain';
import { EXPANDED_AT, type OutboxFeed, takenWithData, unreadEventData } from '@fundi/domain/webhooks';
import type { WebhookStore } from './webhook-tables.js';

const clone = <T>(x: T): T => structuredClone(x);
const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The outbox as the dispatcher reads it (the platform part owns the table). */
export class InMemoryOutboxFeed implements OutboxFeed {
  constructor(private readonly store: WebhookStore) {}
  async takeUndispatched(limit: number, at: string, withData?: readonly string[]): Promise<DomainEvent[]> {
    const t = this.store.tables;
    const taken = t.outbox
      .filter((e) => !t.dispatched.has(e.id))
      .sort(byId)
      .slice(0, limit);
    for (const e of taken) t.dispatched.set(e.id, at);
    return clone(taken).map((e) => (takenWithData(e, withData) ? e : withoutData(e)));
  }
  async anyUndispatched(): Promise<boolean> {
    const t = this.store.tables;
    return t.outbox.some((e) => !t.dispatched.has(e.id));
  }
  async since(tenantId: string, since: string, types: readonly string[], afterId: string | null, limit: number) {
    return clone(
      this.store.tables.outbox
        .filter(
          (e) =>
            e.tenantId === tenantId && e.occurredAt >= since && types.includes(e.type) && (!afterId || e.id > afterId),
        )
        .sort(byId)
        .slice(0, limit),
    );
  }
  async findById(tenantId: string, id: string) {
    return clone(this.store.tables.outbox.find((e) => e.tenantId === tenantId && e.id === id) ?? null);
  }
  async findMany(ids: readonly string[]) {
    return clone(this.store.tables.outbox.filter((e) => ids.includes(e.id)).sort(byId));
  }
  async addDispatched(events: readonly DomainEvent[]) {
    for (const e of events) {
      this.store.tables.outbox.push(clone(e));
      this.store.tables.dispatched.set(e.id, e.occurredAt);
    }
  }
  async markExpanded(tenantId: string, id: string, data: Record<string, unknown>) {
    const e = this.store.tables.outbox.find((x) => x.tenantId === tenantId && x.id === id);
    if (!e || EXPANDED_AT in e.data) return false;
    e.data = clone(data);
    return true;
  }
}

/** As the SQL feed hands out an event whose data it did not read: reading `data` throws. */
function withoutData(e: DomainEvent): DomainEvent {
  const { data: _, ...rest } = e;
  return Object.defineProperty(rest, 'data', {
    get() {
      throw unreadEventData(e);
    },
    enumerable: false,
  }) as DomainEvent;
}
