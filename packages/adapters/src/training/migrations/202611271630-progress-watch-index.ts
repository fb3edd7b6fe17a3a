import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * The overview's learners at risk and upcoming deadlines (docs/dashboard.md, "Pages": the overview): an open enrolment's last
 * assessment date is one index probe (tenant, enrolment, date), and enrolments due in a window are read by their
 * expected end date instead of every enrolment of the tenant.
 */
export const progressWatchIndex: Migration = {
  name: 'training/202611271630-progress-watch-index',
  async up(knex: Knex) {
    await knex.raw(
      'CREATE INDEX IF NOT EXISTS assessments_tenant_enrolment_date ON assessments (tenant_id, enrolment_id, assessment_date)',
    );
    await knex.raw(
      'CREATE INDEX IF NOT EXISTS enrolments_tenant_expected_end ON enrolments (tenant_id, expected_end_date)',
    );
  },
  async down(knex: Knex) {
    await knex.raw('DROP INDEX IF EXISTS enrolments_tenant_expected_end');
    await knex.raw('DROP INDEX IF EXISTS assessments_tenant_enrolment_date');
  },
};
