import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/** The messages a confirm of an import would send, as its dry run counted them (docs/api.md, "Imports"), as JSON. */
export const importMessagesMigration: Migration = {
  name: 'imports/202611271645-predicted-messages',
  async up(knex: Knex) {
    await knex.schema.alterTable('imports', (t) => {
      t.text('predicted_messages');
    });
  },
  async down(knex: Knex) {
    await knex.schema.alterTable('imports', (t) => {
      t.dropColumn('predicted_messages');
    });
  },
};
