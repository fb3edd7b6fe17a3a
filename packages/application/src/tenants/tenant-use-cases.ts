import type { PlatformRepos, TenantRepos } from '@fundi/domain';
import type { AccessDeps, CoreDeps, SecretDeps } from '../common/ports.js';
import { Authenticate } from './authenticate.js';
import { CreateTenant } from './create-tenant.js';
import { CreateApiKey } from './create-api-key.js';
import { DescribeCaller } from './describe-caller.js';
import { ListApiKeys } from './list-api-keys.js';
import { RevokeApiKey } from './revoke-api-key.js';
import { ReconfigureTenant } from './reconfigure-tenant.js';
import { SetTimeZone } from './set-time-zone.js';

export type TenantPorts = CoreDeps<TenantRepos & PlatformRepos> & SecretDeps & AccessDeps;

/** The tenants capability's use cases (tenants, API keys, authentication). */
export function tenantUseCases(p: TenantPorts) {
  return {
    createTenant: new CreateTenant(p),
    reconfigureTenant: new ReconfigureTenant(p),
    createApiKey: new CreateApiKey(p),
    listApiKeys: new ListApiKeys(p),
    revokeApiKey: new RevokeApiKey(p),
    authenticate: new Authenticate(p),
    describeCaller: new DescribeCaller(p),
    /** Every scope and each role's (the `GET /me` schema lists the scopes). */
    access: p.access,
    setTimeZone: new SetTimeZone(p),
  };
}

export type TenantUseCases = ReturnType<typeof tenantUseCases>;
