import { DomainError, type TenantRepos, type PlatformRepos } from '@fundi/domain';
import { operator, type Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { recordChange } from '../common/record-change.js';
import { tenantBySlug } from './tenant-lookup.js';
import { SECURITY_EVENT } from './api-key-events.js';

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
