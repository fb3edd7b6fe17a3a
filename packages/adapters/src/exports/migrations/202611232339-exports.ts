import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/** Export records (their files live in the file store) and each tenant's regulator settings. */
export const exportsMigration: Migration = {
  name: 'exports/202611232339-exports',
  formerly: '009-exports',
  async up(knex: Knex) {
    await knex.schema.createTable('exports', (t) => {
      t.string('id').primary();
      t.string('tenant_id').notNullable().references('tenants.id');
      t.string('type').notNullable();
      t.string('format').notNullable();
      t.string('status').notNullable();
      t.text('filters').notNullable();
      t.text('fields');
      t.integer('row_count');
      t.string('file_name');
      t.bigInteger('size');
      t.string('content_type');
      t.string('storage_key');
      t.text('readiness');
      t.text('error');
      t.string('created_by').notNullable();
      t.string('created_at').notNullable();
      t.string('completed_at');
      t.string('expires_at');
      t.string('purged_at');
      t.index(['tenant_id', 'id']);
      t.index(['status', 'expires_at']);
    });
    await knex.schema.createTable('regulator_settings', (t) => {
      t.string('tenant_id').primary().references('tenants.id');
      t.text('settings').notNullable();
      t.string('updated_at').notNullable();
    });
  },
  async down(knex: Knex) {
    await knex.schema.dropTable('regulator_settings');
    await knex.schema.dropTable('exports');
  },
};
