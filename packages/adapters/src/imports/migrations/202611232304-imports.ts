import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/** CSV imports and their row errors (docs/api.md, "Imports"). */
export const importsMigration: Migration = {
  name: 'imports/202611232304-imports',
  formerly: '008-imports',
  async up(knex: Knex) {
    await knex.schema.createTable('imports', (t) => {
      t.string('id').primary();
      t.string('tenant_id').notNullable().references('tenants.id');
      t.string('type').notNullable();
      t.string('status').notNullable();
      t.string('file_name').notNullable();
      t.string('file_key').notNullable();
      t.boolean('auto_confirm').notNullable();
      t.integer('total_rows').notNullable();
      t.integer('valid_rows').notNullable();
      t.integer('imported_rows').notNullable();
      t.integer('error_count').notNullable();
      t.integer('processed').notNullable();
      t.string('created_by').notNullable();
      t.string('confirmed_by');
      t.string('created_at').notNullable();
      t.string('completed_at');
      t.index(['tenant_id', 'id']);
    });
    await knex.schema.createTable('import_errors', (t) => {
      t.string('import_id').notNullable().references('imports.id').onDelete('CASCADE');
      t.integer('seq').notNullable();
      t.integer('row').notNullable();
      t.string('field').notNullable();
      t.text('error').notNullable();
      t.primary(['import_id', 'seq']);
    });
  },
  async down(knex: Knex) {
    await knex.schema.dropTable('import_errors');
    await knex.schema.dropTable('imports');
  },
};
