import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';
import { keyByTenant, keyWithoutTenant } from '../../migrations/tenant-primary-key.js';

/** `logbook_entries` keyed (tenant_id, id), its rows kept, so that it can be partitioned by tenant (docs/scaling.md). */
export const logbookTenantKey: Migration = {
  name: 'logbooks/202611271607-tenant-key',
  async up(knex: Knex) {
    await keyByTenant(knex, 'logbook_entries', 'id');
  },
  async down(knex: Knex) {
    await keyWithoutTenant(knex, 'logbook_entries', 'id');
  },
};
