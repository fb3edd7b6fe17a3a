import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * Enrolments by (tenant, learner, start date, status, programme code): the learners list sorted by an enrolment
 * column (docs/dashboard.md, "Pages": Learners) takes each learner's first value from one grouped pass over the
 * tenant's enrolments, which this index serves alone, in learner order, with every column the sort and the
 * enrolment filters read, so no enrolment row is read (SQLite and Postgres both plan it so).
 */
export const learnerSortIndex: Migration = {
  name: 'training/202611280020-learner-sort-index',
  async up(knex: Knex) {
    await knex.raw(`CREATE INDEX IF NOT EXISTS enrolments_tenant_learner_sort
      ON enrolments (tenant_id, learner_id, start_date, status, programme_code)`);
  },
  async down(knex: Knex) {
    await knex.raw('DROP INDEX IF EXISTS enrolments_tenant_learner_sort');
  },
};
