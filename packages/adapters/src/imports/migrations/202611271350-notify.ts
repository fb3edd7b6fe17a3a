import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/** Whether an import's rows message learners (docs/api.md, "Imports", `options.notify`); earlier imports did. */
export const importNotifyMigration: Migration = {
  name: 'imports/202611271350-notify',
  async up(knex: Knex) {
    await knex.schema.alterTable('imports', (t) => {
      t.string('notify').notNullable().defaultTo('all');
    });
  },
  async down(knex: Knex) {
    await knex.schema.alterTable('imports', (t) => {
      t.dropColumn('notify');
    });
  },
};
