import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';
import { keyByTenant, keyWithoutTenant } from '../../migrations/tenant-primary-key.js';

/**
 * `statements` keyed (tenant_id, id), its rows kept, so that it can be partitioned by tenant (docs/scaling.md). The
 * verification code stays unique on its own: the public page finds a statement by it before any tenant is known.
 */
export const statementTenantKey: Migration = {
  name: 'statements/202611271607-tenant-key',
  async up(knex: Knex) {
    await keyByTenant(knex, 'statements', 'id');
  },
  async down(knex: Knex) {
    await keyWithoutTenant(knex, 'statements', 'id');
  },
};
