import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

const ALTERNATE = 'learners_tenant_alternate_id_unique';

/**
 * Two index entries fewer for every learner written (each about a tenth of a bulk import's insert time;
 * docs/performance.md, "Where the time goes"):
 * - `learners_tenant_id_id_index` (tenant_id, id) goes: every learner query reads live learners, which the partial
 *   index `learners_live_tenant_id` (tenant_id, id) WHERE erased_at IS NULL answers, and a learner by id alone is
 *   the primary key's.
 * - The alternative-ID unique index keeps only learners that have an alternative ID (most have an SA ID number and
 *   none): the same uniqueness, since NULLs never collided in it, and a lookup by alternative ID (which says
 *   `alternate_id IS NOT NULL`) reads those learners only.
 */
export const learnerIndexTrimMigration: Migration = {
  name: 'learners/202611270411-index-trim',
  formerly: '025-learner-index-trim',
  async up(knex: Knex) {
    await knex.schema.raw('DROP INDEX IF EXISTS learners_tenant_id_id_index');
    await knex.schema.alterTable('learners', (t) => t.dropUnique([], ALTERNATE));
    await knex.schema.raw(
      `CREATE UNIQUE INDEX ${ALTERNATE} ON learners (tenant_id, alternate_id_type, alternate_id) WHERE alternate_id IS NOT NULL`,
    );
  },
  async down(knex: Knex) {
    await knex.schema.raw(`DROP INDEX ${ALTERNATE}`);
    await knex.schema.alterTable('learners', (t) => {
      t.unique(['tenant_id', 'alternate_id_type', 'alternate_id'], { indexName: ALTERNATE });
      t.index(['tenant_id', 'id']);
    });
  },
};
