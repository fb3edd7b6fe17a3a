import type { TenantRepos } from '@fundi/domain';
import { tenantMemory } from '@fundi/memory/tenants';
import { apiKeyUsage } from './migrations/202611232343-api-key-usage.js';
import { tenantTimeZone } from './migrations/202611271334-time-zone.js';
import { SqlApiKeyRepository, SqlApiKeyUsageRepository } from './sql-api-keys.js';
import { SqlTenantRepository } from './sql-tenant-repositories.js';
import type { CapabilityStorage } from '../storage/capability-storage.js';

/** Tenants and API keys (their tables come with the platform's first migration, `foundation`) and key usage. */
export const tenantStorage: CapabilityStorage<TenantRepos> = {
  migrations: [apiKeyUsage, tenantTimeZone],
  sql: (db) => ({
    tenants: new SqlTenantRepository(db),
    apiKeys: new SqlApiKeyRepository(db),
    apiKeyUsage: new SqlApiKeyUsageRepository(db),
  }),
  memory: tenantMemory,
};
