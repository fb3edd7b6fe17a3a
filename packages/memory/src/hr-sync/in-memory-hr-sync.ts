import { DomainError, type Page, type PageRequest, type TenantSnapshot } from '@fundi/domain';
import type {
  HrEventEntry,
  HrEventLog,
  HrSyncConfigRepository,
  HrSyncConfigSnapshot,
  HrSyncRepos,
} from '@fundi/domain/hr-sync';
import type { MemoryPart, MemoryStore } from '../common/memory-store.js';

/** Read from the tenants part: Form B finds a configuration by the tenant's slug. */
type Reads = { tenants: Map<string, TenantSnapshot> };

export interface HrSyncTables {
  hrSyncConfigs: Map<string, HrSyncConfigSnapshot>;
  hrEvents: HrEventEntry[];
}

const clone = <T>(v: T): T => structuredClone(v);

export class InMemoryHrSyncConfigRepository implements HrSyncConfigRepository {
  constructor(private readonly store: MemoryStore<HrSyncTables & Reads>) {}
  async find(tenantId: string) {
    const c = this.store.tables.hrSyncConfigs.get(tenantId);
    return c ? clone(c) : null;
  }
  async findByTenantSlug(slug: string) {
    for (const t of this.store.tables.tenants.values()) if (t.slug === slug) return this.find(t.id);
    return null;
  }
  async findByKeyHash(hash: string) {
    for (const c of this.store.tables.hrSyncConfigs.values())
      if (c.keyHash === hash || c.previousKeyHash === hash) return clone(c);
    return null;
  }
  async save(c: HrSyncConfigSnapshot) {
    this.store.tables.hrSyncConfigs.set(c.tenantId, clone(c));
  }
}

export class InMemoryHrEventLog implements HrEventLog {
  constructor(private readonly store: MemoryStore<HrSyncTables>) {}
  async add(e: HrEventEntry) {
    if (e.result === 'processed' && this.store.tables.hrEvents.some((x) => processed(x, e.tenantId, e.eventKey)))
      throw DomainError.conflict('hr_event_duplicate', 'This event was already processed');
    this.store.tables.hrEvents.push(clone(e));
  }
  async findProcessed(tenantId: string, eventKey: string) {
    const e = this.store.tables.hrEvents.find((x) => processed(x, tenantId, eventKey));
    return e ? clone(e) : null;
  }
  async list(tenantId: string, page: PageRequest): Promise<Page<HrEventEntry>> {
    const all = this.store.tables.hrEvents
      .filter((e) => e.tenantId === tenantId)
      .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    const from = page.kind === 'cursor' ? all.filter((a) => !page.after || a.id < page.after) : all.slice(page.offset);
    return clone({ items: from.slice(0, page.limit), total: all.length, hasMore: from.length > page.limit });
  }
  async redactLearner(tenantId: string, learnerId: string) {
    const hit = this.store.tables.hrEvents.filter((e) => e.tenantId === tenantId && e.learnerId === learnerId);
    for (const e of hit) Object.assign(e, { data: null, redacted: true, eventKey: `erased:${e.id}` });
    return hit.length;
  }
  async pruneBefore(before: string, limit: number) {
    const t = this.store.tables;
    const oldest = [...t.hrEvents].sort((a, b) => (a.id < b.id ? -1 : 1)).slice(0, limit);
    const gone = new Set(oldest.filter((e) => e.receivedAt < before));
    t.hrEvents = t.hrEvents.filter((e) => !gone.has(e));
    return gone.size;
  }
}

const processed = (x: HrEventEntry, tenantId: string, key: string) =>
  x.tenantId === tenantId && x.eventKey === key && x.result === 'processed';

export const hrSyncMemory: MemoryPart<HrSyncRepos, HrSyncTables, Reads> = {
  tables: () => ({ hrSyncConfigs: new Map(), hrEvents: [] }),
  repositories: (store) => ({
    hrSyncConfigs: new InMemoryHrSyncConfigRepository(store),
    hrEvents: new InMemoryHrEventLog(store),
  }),
};
