import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * Column mappings (docs/api.md, "Imports", "Headers as people write them"): the one an import was read with, kept
 * with it so its dry run and confirm read the file alike, and each tenant's saved mapping per import type, keyed by
 * the header name without case, spaces or punctuation.
 */
export const columnMapsMigration: Migration = {
  name: 'imports/202611271317-column-maps',
  async up(knex: Knex) {
    await knex.schema.alterTable('imports', (t) => {
      t.text('column_map');
    });
    await knex.schema.createTable('import_column_maps', (t) => {
      t.string('tenant_id').notNullable().references('tenants.id');
      t.string('type').notNullable();
      t.string('header').notNullable();
      t.string('column').notNullable();
      t.primary(['tenant_id', 'type', 'header']);
    });
  },
  async down(knex: Knex) {
    await knex.schema.dropTable('import_column_maps');
    await knex.schema.alterTable('imports', (t) => {
      t.dropColumn('column_map');
    });
  },
};
