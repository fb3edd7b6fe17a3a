import { ApiKey, type ApiKeyView, type TenantRepos, type PlatformRepos } from '@fundi/domain';
import type { CoreDeps } from '../common/ports.js';
import { tenantBySlug } from './tenant-lookup.js';

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
