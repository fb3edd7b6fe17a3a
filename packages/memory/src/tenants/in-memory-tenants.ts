import {
  DomainError,
  type ApiKeyUsageDelta,
  type ApiKeyUsageRepository,
  type ApiKeyRepository,
  type ApiKeySnapshot,
  type TenantRepos,
  type TenantRepository,
  type TenantSnapshot,
} from '@fundi/domain';
import type { MemoryPart, MemoryStore } from '../common/memory-store.js';

const clone = <T>(x: T): T => structuredClone(x);

export interface TenantTables {
  tenants: Map<string, TenantSnapshot>;
  apiKeys: Map<string, ApiKeySnapshot>;
  /** Bumped by every tenant or key write, like the SQL `auth_epoch`. */
  authEpoch: number;
  /** Requests per `keyId|day`. */
  apiKeyUsage: Map<string, ApiKeyUsageDelta>;
}

export class InMemoryTenantRepository implements TenantRepository {
  constructor(private readonly store: MemoryStore<TenantTables>) {}
  async insert(t: TenantSnapshot) {
    if ([...this.store.tables.tenants.values()].some((x) => x.slug === t.slug)) {
      throw DomainError.conflict('duplicate_slug', `A tenant with slug ${t.slug} already exists`, [
        { field: 'slug', message: 'is taken' },
      ]);
    }
    this.store.tables.authEpoch++;
    this.store.tables.tenants.set(t.id, clone(t));
  }
  async update(t: TenantSnapshot) {
    if (!this.store.tables.tenants.has(t.id)) throw DomainError.notFound('tenant', t.slug);
    this.store.tables.authEpoch++;
    this.store.tables.tenants.set(t.id, clone(t));
  }
  async findBySlug(slug: string) {
    return clone([...this.store.tables.tenants.values()].find((t) => t.slug === slug) ?? null);
  }
  async findById(id: string) {
    return clone(this.store.tables.tenants.get(id) ?? null);
  }
  async list() {
    return clone([...this.store.tables.tenants.values()].sort((a, b) => a.slug.localeCompare(b.slug)));
  }
}

export class InMemoryApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly store: MemoryStore<TenantTables>) {}
  async insert(k: ApiKeySnapshot) {
    this.store.tables.authEpoch++;
    this.store.tables.apiKeys.set(k.id, clone(k));
  }
  async authEpoch() {
    return this.store.tables.authEpoch;
  }
  async findByHash(hash: string) {
    return clone([...this.store.tables.apiKeys.values()].find((k) => k.hash === hash) ?? null);
  }
  async listByTenant(tenantId: string) {
    return clone(
      [...this.store.tables.apiKeys.values()]
        .filter((k) => k.tenantId === tenantId)
        .sort((a, b) => (a.id < b.id ? 1 : -1)),
    );
  }
  async findByIds(tenantId: string, ids: readonly string[]) {
    const out: ApiKeySnapshot[] = [];
    for (const id of new Set(ids)) {
      const k = this.store.tables.apiKeys.get(id);
      if (k && k.tenantId === tenantId) out.push(clone(k));
    }
    return out;
  }
  async revoke(tenantId: string, id: string, at: string) {
    const k = this.store.tables.apiKeys.get(id);
    if (!k || k.tenantId !== tenantId) return false;
    k.revokedAt ??= at;
    this.store.tables.authEpoch++;
    return true;
  }
}

export class InMemoryApiKeyUsageRepository implements ApiKeyUsageRepository {
  constructor(private readonly store: MemoryStore<TenantTables>) {}
  async add(deltas: readonly ApiKeyUsageDelta[]) {
    for (const d of deltas) {
      const id = `${d.keyId}|${d.day}`;
      const row = this.store.tables.apiKeyUsage.get(id);
      if (!row) this.store.tables.apiKeyUsage.set(id, { ...d });
      else {
        row.requests += d.requests;
        if (d.lastUsedAt > row.lastUsedAt) row.lastUsedAt = d.lastUsedAt;
      }
    }
  }
  async requestsOn(tenantId: string, day: string) {
    let n = 0;
    for (const r of this.store.tables.apiKeyUsage.values())
      if (r.tenantId === tenantId && r.day === day) n += r.requests;
    return n;
  }
  async lastUsed(tenantId: string) {
    const out: Record<string, string> = {};
    for (const r of this.store.tables.apiKeyUsage.values())
      if (r.tenantId === tenantId && (out[r.keyId] ?? '') < r.lastUsedAt) out[r.keyId] = r.lastUsedAt;
    return out;
  }
}

export const tenantMemory: MemoryPart<TenantRepos, TenantTables> = {
  tables: () => ({ tenants: new Map(), apiKeys: new Map(), authEpoch: 0, apiKeyUsage: new Map() }),
  repositories: (store) => ({
    tenants: new InMemoryTenantRepository(store),
    apiKeys: new InMemoryApiKeyRepository(store),
    apiKeyUsage: new InMemoryApiKeyUsageRepository(store),
  }),
};
