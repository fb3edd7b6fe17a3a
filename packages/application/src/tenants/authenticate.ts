import {
  ApiKey,
  DomainError,
  Tenant,
  type TenantLimits,
  type TenantSnapshot,
  type TenantRepos,
  type PlatformRepos,
} from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { CoreDeps, SecretDeps } from '../common/ports.js';

export interface Principal {
  actor: Actor;
  tenant: TenantSnapshot;
  limits: TenantLimits;
  /** The key's last valid day, so a cached resolution can still expire. */
  keyExpiresAt: string | null;
}

/** Resolves a presented bearer key. Unknown, expired and revoked keys are all the same 401. */
export class Authenticate {
  constructor(private readonly deps: Pick<CoreDeps<TenantRepos & PlatformRepos>, 'repos' | 'clock'> & SecretDeps) {}

  /** Changes whenever a tenant or key is written anywhere; see ApiKeyRepository.authEpoch. */
  authEpoch(): Promise<number> {
    return this.deps.repos.apiKeys.authEpoch();
  }

  async execute(presented: string): Promise<Principal> {
    const key = await this.deps.repos.apiKeys.findByHash(this.deps.secrets.hash(presented));
    if (!key || !ApiKey.isUsable(key, this.deps.clock.now())) throw unauthorized();
    const tenant = await this.deps.repos.tenants.findById(key.tenantId);
    if (!tenant) throw unauthorized();
    return {
      actor: { tenantId: tenant.id, id: key.id, role: key.role, scopes: key.scopes, name: key.name },
      tenant,
      limits: Tenant.limits(tenant),
      keyExpiresAt: key.expiresAt,
    };
  }
}

function unauthorized(): DomainError {
  return new DomainError('unauthorized', 'unauthorized', 'The API key is missing, unknown, expired or revoked');
}
