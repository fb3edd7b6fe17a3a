import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * Why an export's file was purged (`expired`, `learner_erased`); files purged before this column existed were all
 * purged for their age.
 */
export const exportPurgeReason: Migration = {
  name: 'exports/202611271017-purge-reason',
  formerly: '029-export-purge',
  async up(knex: Knex) {
    await knex.schema.alterTable('exports', (t) => {
      t.string('purge_reason');
    });
    await knex('exports').whereNotNull('purged_at').update({ purge_reason: 'expired' });
  },
  async down(knex: Knex) {
    await knex.schema.alterTable('exports', (t) => {
      t.dropColumn('purge_reason');
    });
  },
};
