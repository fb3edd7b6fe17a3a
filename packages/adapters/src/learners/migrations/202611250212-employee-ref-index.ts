import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * Drops `(tenant_id, employee_ref)`: `(tenant_id, employee_ref, id)` answers everything it answers (filters by
 * reference, and HR sync's first match by id), so the shorter one only cost every learner write an index entry (a
 * tenth of a bulk import's index writes).
 */
export const learnerEmployeeRefIndexMigration: Migration = {
  name: 'learners/202611250212-employee-ref-index',
  formerly: '023-learner-employee-ref-index',
  async up(knex: Knex) {
    await knex.schema.raw(
      'CREATE INDEX IF NOT EXISTS learners_tenant_employee_ref_id ON learners (tenant_id, employee_ref, id)',
    );
    await knex.schema.raw('DROP INDEX IF EXISTS learners_tenant_id_employee_ref_index');
  },
  async down(knex: Knex) {
    await knex.schema.raw('CREATE INDEX learners_tenant_id_employee_ref_index ON learners (tenant_id, employee_ref)');
  },
};
