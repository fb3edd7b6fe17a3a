import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * Enrolments by status, in id order (the list filtered by status, the API's and the dashboard's), and assessments by
 * date (a date range without a programme: the overview's results of this month), each read through an index instead
 * of every row of the tenant.
 */
export const enrolmentStatusIndex: Migration = {
  name: 'training/202611271350-enrolment-status-index',
  async up(knex: Knex) {
    await knex.raw('CREATE INDEX IF NOT EXISTS enrolments_tenant_status_id ON enrolments (tenant_id, status, id)');
    await knex.raw('CREATE INDEX IF NOT EXISTS assessments_tenant_date ON assessments (tenant_id, assessment_date)');
  },
  async down(knex: Knex) {
    await knex.raw('DROP INDEX IF EXISTS assessments_tenant_date');
    await knex.raw('DROP INDEX IF EXISTS enrolments_tenant_status_id');
  },
};
