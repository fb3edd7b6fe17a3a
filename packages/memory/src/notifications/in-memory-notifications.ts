import { DomainError, type Page, type PageRequest } from '@fundi/domain';
import {
  withoutDetails,
  type NotificationChannel,
  type NotificationFilter,
  type NotificationRepository,
  type NotificationSnapshot,
} from '@fundi/domain/notifications';
import { pageOf } from '../common/paging.js';
import type { MemoryStore } from '../common/memory-store.js';
import type { NotificationTables } from './notification-tables.js';

const clone = <T>(x: T): T => structuredClone(x);

export class InMemoryNotificationRepository implements NotificationRepository {
  constructor(private readonly store: MemoryStore<NotificationTables>) {}
  private get rows() {
    return this.store.tables.notifications;
  }
  async insertMany(ns: readonly NotificationSnapshot[]): Promise<NotificationSnapshot[]> {
    const taken = new Set(
      [...this.rows.values()].filter((n) => n.dedupeKey !== null).map((n) => `${n.tenantId}\u0000${n.dedupeKey}`),
    );
    const out: NotificationSnapshot[] = [];
    for (const n of ns) {
      const key = `${n.tenantId}\u0000${n.dedupeKey}`;
      if (n.dedupeKey !== null && taken.has(key)) continue;
      if (n.dedupeKey !== null) taken.add(key);
      this.rows.set(n.id, clone(n));
      out.push(clone(n));
    }
    return out;
  }
  async update(n: NotificationSnapshot): Promise<void> {
    const cur = this.rows.get(n.id);
    if (!cur || cur.tenantId !== n.tenantId) throw DomainError.notFound('notification', n.id);
    this.rows.set(n.id, clone(n));
  }
  async updateOutcomes(tenantId: string, ns: readonly NotificationSnapshot[]): Promise<void> {
    for (const n of ns) {
      const cur = this.rows.get(n.id);
      if (!cur || cur.tenantId !== tenantId || cur.status !== 'queued') continue;
      this.rows.set(n.id, {
        ...cur,
        status: n.status,
        history: cur.to === null ? withoutDetails(n.history) : clone(n.history),
        attempts: n.attempts,
        providerMessageId: n.providerMessageId,
        content: n.content === null ? null : cur.content,
        updatedAt: n.updatedAt,
      });
    }
  }
  async findById(tenantId: string, id: string): Promise<NotificationSnapshot | null> {
    const n = this.rows.get(id);
    return n && n.tenantId === tenantId ? clone(n) : null;
  }
  async findMany(tenantId: string, ids: readonly string[]): Promise<NotificationSnapshot[]> {
    return ids.flatMap((id) => {
      const n = this.rows.get(id);
      return n && n.tenantId === tenantId ? [clone(n)] : [];
    });
  }
  async findByProviderMessageId(channel: NotificationChannel, id: string): Promise<NotificationSnapshot | null> {
    const n = [...this.rows.values()].find((x) => x.channel === channel && x.providerMessageId === id);
    return n ? clone(n) : null;
  }
  async list(tenantId: string, f: NotificationFilter, page: PageRequest): Promise<Page<NotificationSnapshot>> {
    const all = [...this.rows.values()].filter(
      (n) =>
        n.tenantId === tenantId &&
        (!f.recipientId || n.recipientId === f.recipientId) &&
        (!f.channel || n.channel === f.channel) &&
        (!f.status || n.status === f.status) &&
        (!f.template || n.template === f.template),
    );
    return clone(pageOf(all, page));
  }
  async redactLearner(tenantId: string, learnerId: string, mentions: readonly string[] = []): Promise<number> {
    const lower = mentions.map((m) => m.toLowerCase());
    const mentioned = (x: NotificationSnapshot) =>
      x.trigger === null &&
      x.recipientType === 'user' &&
      x.learnerId === null &&
      x.content !== null &&
      lower.some((m) => JSON.stringify(x.content).toLowerCase().includes(m));
    let n = 0;
    for (const x of this.rows.values())
      if (x.tenantId === tenantId && (x.recipientId === learnerId || x.learnerId === learnerId || mentioned(x))) {
        if (x.recipientId === learnerId) x.to = null;
        x.learnerId = learnerId;
        x.content = null;
        x.history = withoutDetails(x.history);
        n++;
      }
    return n;
  }
  async pruneSettled(before: string, limit: number) {
    const gone = [...this.rows.values()]
      .filter((x) => x.status !== 'queued' && x.updatedAt < before)
      .sort((a, b) => (a.updatedAt < b.updatedAt ? -1 : 1))
      .slice(0, limit);
    for (const x of gone) this.rows.delete(x.id);
    return gone.length;
  }
  async redactedAmong(tenantId: string, ids: readonly string[]): Promise<string[]> {
    return ids.filter((id) => {
      const x = this.rows.get(id);
      return x && x.tenantId === tenantId && x.learnerId !== null && x.content === null;
    });
  }
  async idsAbout(tenantId: string, learnerId: string): Promise<string[]> {
    return [...this.rows.values()]
      .filter((x) => x.tenantId === tenantId && x.learnerId === learnerId)
      .map((x) => x.id)
      .sort();
  }
}
