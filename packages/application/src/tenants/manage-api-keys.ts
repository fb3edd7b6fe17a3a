import {
  ApiKey,
  DomainError,
  Tenant,
  newId,
  type ApiKeyView,
  type Role,
  type Scope,
  type TenantRepos,
  type PlatformRepos,
} from '@fundi/domain';
import { operator, type Actor } from '../common/actor.js';
import type { AccessDeps, CoreDeps, SecretDeps } from '../common/ports.js';
import { recordChange } from '../common/record-change.js';
import { tenantBySlug } from './tenant-lookup.js';

export interface KeyInput {
  name: unknown;
  role: unknown;
  scopes?: readonly string[];
  expiresAt?: unknown;
}

/** Issues a key for a tenant (named by slug); the secret is in the answer only. */
/** Internal event (no webhook event type) on API key changes: the security alert notification reacts to it. */
export const SECURITY_EVENT = 'security.api_key_changed';

export class CreateApiKey {
  constructor(private readonly deps: CoreDeps<TenantRepos & PlatformRepos> & SecretDeps & AccessDeps) {}

  async execute(tenantSlug: string, input: KeyInput, actor?: Actor): Promise<ApiKeyView & { key: string }> {
    const tenant = await tenantBySlug(this.deps.repos, tenantSlug);
    const now = this.deps.clock.now();
    const secret = this.deps.secrets.newApiKey();
    const key = ApiKey.create(input, {
      id: newId('key'),
      tenantId: tenant.id,
      now,
      access: this.deps.access,
      ...secret,
    });
    await this.deps.uow.run(async (tx) => {
      await tx.apiKeys.insert(key);
      await recordChange(tx, actor ?? operator(tenant.id), now, {
        action: 'api_key.created',
        resourceType: 'api_key',
        resourceId: key.id,
        // Internal event (not a webhook event type): the admins' security alert reacts to it.
        events: [
          { type: SECURITY_EVENT, data: { action: 'created', keyId: key.id, keyName: key.name, role: key.role } },
        ],
      });
    });
    return { ...ApiKey.view(key), key: secret.key };
  }
}

export class ListApiKeys {
  constructor(private readonly deps: Pick<CoreDeps<TenantRepos & PlatformRepos>, 'repos'>) {}

  /** Newest first, each with when it was last used (null: never; counts reach the store within seconds). */
  async execute(tenantSlug: string): Promise<(ApiKeyView & { lastUsedAt: string | null })[]> {
    const tenant = await tenantBySlug(this.deps.repos, tenantSlug);
    const used = await this.deps.repos.apiKeyUsage.lastUsed(tenant.id);
    return (await this.deps.repos.apiKeys.listByTenant(tenant.id)).map((k) => ({
      ...ApiKey.view(k),
      lastUsedAt: used[k.id] ?? null,
    }));
  }
}

export class RevokeApiKey {
  constructor(private readonly deps: CoreDeps<TenantRepos & PlatformRepos>) {}

  async execute(tenantSlug: string, keyId: string, actor?: Actor): Promise<void> {
    const tenant = await tenantBySlug(this.deps.repos, tenantSlug);
    const now = this.deps.clock.now();
    await this.deps.uow.run(async (tx) => {
      if (!(await tx.apiKeys.revoke(tenant.id, keyId, now.toISOString()))) throw DomainError.notFound('api_key', keyId);
      const key = (await tx.apiKeys.listByTenant(tenant.id)).find((k) => k.id === keyId);
      await recordChange(tx, actor ?? operator(tenant.id), now, {
        action: 'api_key.revoked',
        resourceType: 'api_key',
        resourceId: keyId,
        events: [
          {
            type: SECURITY_EVENT,
            data: { action: 'revoked', keyId, keyName: key?.name ?? keyId, role: key?.role ?? null },
          },
        ],
      });
    });
  }
}

/** What the calling key may do: its tenant, role, scopes, limits and expiry (`GET /me`). */
export interface CallerView {
  key: {
    id: string;
    name: string;
    prefix: string;
    role: Role;
    scopes: Scope[];
    expiresAt: string | null;
    createdAt: string;
  };
  tenant: { id: string; slug: string; name: string; plan: string };
  limits: { perMinute: number; perDay: number | null; storageBytes: number | null };
}

export class DescribeCaller {
  constructor(private readonly deps: Pick<CoreDeps<TenantRepos & PlatformRepos>, 'repos'>) {}

  async execute(actor: Actor): Promise<CallerView> {
    const tenant = await this.deps.repos.tenants.findById(actor.tenantId);
    const key = (await this.deps.repos.apiKeys.listByTenant(actor.tenantId)).find((k) => k.id === actor.id);
    if (!tenant || !key) throw DomainError.notFound('api_key', actor.id);
    const limits = Tenant.limits(tenant);
    return {
      key: {
        id: key.id,
        name: key.name,
        prefix: key.prefix,
        role: key.role,
        scopes: [...key.scopes],
        expiresAt: key.expiresAt,
        createdAt: key.createdAt,
      },
      tenant: { id: tenant.id, slug: tenant.slug, name: tenant.name, plan: tenant.plan },
      limits: { perMinute: limits.perMinute, perDay: limits.perDay, storageBytes: limits.storageBytes },
    };
  }
}
