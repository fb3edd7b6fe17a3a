import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * The full report of an import (docs/api.md, "Imports"): rows with errors counted apart from errors, and each error
 * with the cell's value and the learner its row names. Imports checked before this column existed count every row
 * that was not valid as a row with errors.
 */
export const importReportMigration: Migration = {
  name: 'imports/202611271245-import-report',
  async up(knex: Knex) {
    await knex.schema.alterTable('imports', (t) => {
      t.integer('rows_with_errors').notNullable().defaultTo(0);
    });
    await knex('imports')
      .whereIn('status', ['validated', 'completed', 'importing'])
      .update({ rows_with_errors: knex.raw('total_rows - valid_rows') });
    await knex.schema.alterTable('import_errors', (t) => {
      t.text('value');
      t.text('learner_name');
      t.string('learner_id_number');
    });
  },
  async down(knex: Knex) {
    await knex.schema.alterTable('import_errors', (t) => {
      t.dropColumn('value');
      t.dropColumn('learner_name');
      t.dropColumn('learner_id_number');
    });
    await knex.schema.alterTable('imports', (t) => {
      t.dropColumn('rows_with_errors');
    });
  },
};
