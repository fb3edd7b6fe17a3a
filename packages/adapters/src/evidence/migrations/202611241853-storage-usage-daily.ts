import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/** Storage use per tenant and day (the dashboard's usage chart): one row a day, replaced by later snapshots. */
export const storageUsageDaily: Migration = {
  name: 'evidence/202611241853-storage-usage-daily',
  formerly: '017-storage-usage-daily',
  async up(knex: Knex) {
    await knex.schema.createTable('storage_usage_daily', (t) => {
      t.string('tenant_id').notNullable();
      t.string('day').notNullable();
      t.bigInteger('bytes').notNullable();
      t.integer('files').notNullable();
      t.primary(['tenant_id', 'day']);
    });
  },
  async down(knex: Knex) {
    await knex.schema.dropTable('storage_usage_daily');
  },
};
