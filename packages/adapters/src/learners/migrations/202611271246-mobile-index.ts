import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * Learners by mobile number, for the learner portal's sign-in by WhatsApp code (docs/dashboard.md, "Learner portal"):
 * only learners with a mobile number have an entry.
 */
export const learnerMobileIndexMigration: Migration = {
  name: 'learners/202611271246-mobile-index',
  async up(knex: Knex) {
    await knex.schema.raw(
      'CREATE INDEX IF NOT EXISTS learners_tenant_mobile ON learners (tenant_id, mobile) WHERE mobile IS NOT NULL',
    );
  },
  async down(knex: Knex) {
    await knex.schema.raw('DROP INDEX IF EXISTS learners_tenant_mobile');
  },
};
