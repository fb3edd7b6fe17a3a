import type { ApiKeySnapshot } from './api-key.js';
import type { TenantSnapshot } from './tenant.js';

/** Port: tenants. Slugs are unique across the service. */
export interface TenantRepository {
  /** Throws DomainError conflict `duplicate_slug`. */
  insert(tenant: TenantSnapshot): Promise<void>;
  /** Replaces name, plan, limit overrides and time zone (slug and id never change). Throws not_found for an unknown tenant. */
  update(tenant: TenantSnapshot): Promise<void>;
  findBySlug(slug: string): Promise<TenantSnapshot | null>;
  findById(id: string): Promise<TenantSnapshot | null>;
  list(): Promise<TenantSnapshot[]>;
}

/** Port: API keys, found by the hash of the presented secret. */
export interface ApiKeyRepository {
  insert(key: ApiKeySnapshot): Promise<void>;
  /** Includes revoked and expired keys; the caller decides whether the key is usable. */
  findByHash(hash: string): Promise<ApiKeySnapshot | null>;
  /** Newest first. */
  listByTenant(tenantId: string): Promise<ApiKeySnapshot[]>;
  /**
   * The tenant's keys among `ids`, revoked and expired ones included (any order; unknown ids and other tenants'
   * keys are left out).
   */
  findByIds(tenantId: string, ids: readonly string[]): Promise<ApiKeySnapshot[]>;
  /** Sets `revokedAt` once; returns false when the key is not the tenant's. Revoking twice keeps the first time. */
  revoke(tenantId: string, id: string, at: string): Promise<boolean>;
  /**
   * A number that changes (in every process) whenever any tenant or key is written. A cached key resolution
   * is valid while the epoch is unchanged.
   */
  authEpoch(): Promise<number>;
}

/** Requests counted for one API key on one UTC day, added to what is stored (several processes add theirs). */
export interface ApiKeyUsageDelta {
  tenantId: string;
  keyId: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  requests: number;
  /** ISO time of the last request counted. */
  lastUsedAt: string;
}

/** Port: per-key request counts by day, and when each key was last used. */
export interface ApiKeyUsageRepository {
  /** Adds each delta's requests to its (key, day) row; the later `lastUsedAt` wins. */
  add(deltas: readonly ApiKeyUsageDelta[]): Promise<void>;
  /** Requests of all the tenant's keys on `day`. */
  requestsOn(tenantId: string, day: string): Promise<number>;
  /** When each of the tenant's keys was last used (keys never used are absent). */
  lastUsed(tenantId: string): Promise<Record<string, string>>;
}

/** The tenants capability's repositories. */
export interface TenantRepos {
  tenants: TenantRepository;
  apiKeys: ApiKeyRepository;
  apiKeyUsage: ApiKeyUsageRepository;
}
