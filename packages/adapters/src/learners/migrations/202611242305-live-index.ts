import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * The tenant's live (not erased) learners in id order, as an index of its own: a list's total
 * (`COUNT(*) ... WHERE tenant_id = ? AND erased_at IS NULL`) is then counted in the index instead of visiting
 * every row of the tenant for its `erased_at`, about three times faster on SQLite.
 */
export const learnerLiveIndexMigration: Migration = {
  name: 'learners/202611242305-live-index',
  formerly: '020-learner-live-index',
  async up(knex: Knex) {
    await knex.schema.raw('CREATE INDEX learners_live_tenant_id ON learners (tenant_id, id) WHERE erased_at IS NULL');
  },
  async down(knex: Knex) {
    await knex.schema.raw('DROP INDEX learners_live_tenant_id');
  },
};
