import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/** How an import's file was read (docs/api.md, "Imports"): its encoding and delimiter as JSON, found by its dry run. */
export const fileFormatMigration: Migration = {
  name: 'imports/202611271328-file-format',
  async up(knex: Knex) {
    await knex.schema.alterTable('imports', (t) => {
      t.string('file_format');
    });
  },
  async down(knex: Knex) {
    await knex.schema.alterTable('imports', (t) => {
      t.dropColumn('file_format');
    });
  },
};
