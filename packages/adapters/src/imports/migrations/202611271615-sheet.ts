import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/** The sheet of a workbook an import reads (docs/api.md, "Imports", `options.sheet`); null: the first sheet. */
export const importSheetMigration: Migration = {
  name: 'imports/202611271615-sheet',
  async up(knex: Knex) {
    await knex.schema.alterTable('imports', (t) => {
      t.string('sheet');
    });
  },
  async down(knex: Knex) {
    await knex.schema.alterTable('imports', (t) => {
      t.dropColumn('sheet');
    });
  },
};
