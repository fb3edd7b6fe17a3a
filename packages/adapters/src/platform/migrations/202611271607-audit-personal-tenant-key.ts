import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';
import { keyByTenant, keyWithoutTenant } from '../../migrations/tenant-primary-key.js';

/** `audit_personal` keyed (tenant_id, entry_id), its rows kept, so that it can be partitioned by tenant (docs/scaling.md). */
export const auditPersonalTenantKey: Migration = {
  name: 'platform/202611271607-audit-personal-tenant-key',
  async up(knex: Knex) {
    await keyByTenant(knex, 'audit_personal', 'entry_id');
  },
  async down(knex: Knex) {
    await keyWithoutTenant(knex, 'audit_personal', 'entry_id');
  },
};
