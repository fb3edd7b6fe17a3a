import { DomainError, Tenant, type PlatformRepos, type Role, type Scope, type TenantRepos } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';

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
