import type { TenantRepos } from '@fundi/domain';
import { tenantMemory } from '@fundi/fakes';
import { SqlApiKeyRepository, SqlTenantRepository } from '../repos/sql-tenant-repositories.js';
import type { CapabilityStorage } from '../storage/capability-storage.js';

/** Tenants and API keys (their tables come with the first migration, see platform-storage.ts). */
export const tenantStorage: CapabilityStorage<TenantRepos> = {
  migrations: [],
  sql: (db) => ({ tenants: new SqlTenantRepository(db), apiKeys: new SqlApiKeyRepository(db) }),
  memory: tenantMemory,
};
