import { ApiKey, newId, type ApiKeyView, type TenantRepos, type PlatformRepos } from '@fundi/domain';
import { operator, type Actor } from '../common/actor.js';
import type { AccessDeps, CoreDeps, SecretDeps } from '../common/ports.js';
import { recordChange } from '../common/record-change.js';
import { tenantBySlug } from './tenant-lookup.js';
import { SECURITY_EVENT } from './api-key-events.js';

export interface KeyInput {
  name: unknown;
  role: unknown;
  scopes?: readonly string[];
  expiresAt?: unknown;
}

/** Issues a key for a tenant (named by slug); the secret is in the answer only. */
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
