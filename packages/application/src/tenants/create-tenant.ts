import {
  ApiKey,
  Tenant,
  type ApiKeyView,
  newId,
  type TenantSnapshot,
  type TenantRepos,
  type PlatformRepos,
} from '@fundi/domain';
import { operator } from '../common/actor.js';
import type { AccessDeps, CoreDeps, SecretDeps } from '../common/ports.js';
import { recordChange } from '../common/record-change.js';

export interface CreatedTenant {
  tenant: Pick<TenantSnapshot, 'id' | 'slug' | 'name' | 'plan'>;
  apiKey: ApiKeyView & { key: string };
}

/** Creates a tenant and its first admin key in one transaction; the key is returned once and never again. */
export class CreateTenant {
  constructor(private readonly deps: CoreDeps<TenantRepos & PlatformRepos> & SecretDeps & AccessDeps) {}

  async execute(input: { slug: unknown; name: unknown; plan: unknown }): Promise<CreatedTenant> {
    const now = this.deps.clock.now();
    const tenant = Tenant.create(input, { id: newId('ten'), now });
    const secret = this.deps.secrets.newApiKey();
    const key = ApiKey.create(
      { name: 'Initial admin key', role: 'admin' },
      { id: newId('key'), tenantId: tenant.id, now, access: this.deps.access, ...secret },
    );
    await this.deps.uow.run(async (tx) => {
      await tx.tenants.insert(tenant);
      await tx.apiKeys.insert(key);
      const actor = operator(tenant.id);
      await recordChange(tx, actor, now, { action: 'tenant.created', resourceType: 'tenant', resourceId: tenant.id });
      await recordChange(tx, actor, now, { action: 'api_key.created', resourceType: 'api_key', resourceId: key.id });
    });
    const { id, slug, name, plan } = tenant;
    return { tenant: { id, slug, name, plan }, apiKey: { ...ApiKey.view(key), key: secret.key } };
  }
}
