import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/** How far a running export has got: rows written so far and the rows it will hold (when known). */
export const exportProgress: Migration = {
  name: 'exports/202611271640-progress',
  async up(knex: Knex) {
    await knex.schema.alterTable('exports', (t) => {
      t.integer('processed_rows');
      t.integer('total_rows');
    });
  },
  async down(knex: Knex) {
    await knex.schema.alterTable('exports', (t) => {
      t.dropColumn('processed_rows');
      t.dropColumn('total_rows');
    });
  },
};
