import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * Learners without an SA ID number: an alternative ID and its type, unique per (type, number) within a tenant.
 * `id_number` was always nullable; it is now null for these learners (NULLs never collide in a unique index).
 */
export const learnerAlternateIdMigration: Migration = {
  name: 'learners/202611232340-alternate-id',
  formerly: '009-learner-alternate-id',
  async up(knex: Knex) {
    await knex.schema.alterTable('learners', (t) => {
      t.string('alternate_id');
      t.string('alternate_id_type');
    });
    await knex.schema.alterTable('learners', (t) => {
      t.unique(['tenant_id', 'alternate_id_type', 'alternate_id'], {
        indexName: 'learners_tenant_alternate_id_unique',
      });
    });
  },
  async down(knex: Knex) {
    await knex.schema.alterTable('learners', (t) => t.dropUnique([], 'learners_tenant_alternate_id_unique'));
    await knex.schema.alterTable('learners', (t) => {
      t.dropColumn('alternate_id');
      t.dropColumn('alternate_id_type');
    });
  },
};
