import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * A learner's or an enrolment's rows in id order, and the counts the overview reads (docs/dashboard.md, "Pages": the
 * overview), each from one index whatever the planner's statistics:
 * - assessments by (tenant, enrolment, id) and (tenant, learner, id), enrolments by (tenant, learner, id): a list of
 *   one enrolment's or learner's rows is ordered by id, and with only (tenant, enrolment) the planner, without
 *   statistics (a young SQLite database has none), walked the tenant's (tenant, id) index instead, reading every
 *   assessment of the tenant for each list (about 25 ms at 50,000; a QCTO02 readiness report makes one per
 *   enrolment). They replace the (tenant, enrolment) and (tenant, learner) indexes, which they lead with.
 * - enrolments by (tenant, programme, status): the counts per programme and status come from the index alone (it
 *   replaces (tenant, programme)); by (tenant, expected end date): the enrolments due in a window; by (tenant,
 *   status, start, expected end, learner, id): the learners at risk are counted from the index alone.
 */
export const progressWatchIndex: Migration = {
  name: 'training/202611271605-progress-watch-index',
  async up(knex: Knex) {
    const swap = async (drop: string, create: string) => {
      await knex.raw(create);
      await knex.raw(`DROP INDEX IF EXISTS ${drop}`);
    };
    await swap(
      'assessments_tenant_id_enrolment_id_index',
      'CREATE INDEX IF NOT EXISTS assessments_tenant_enrolment_id ON assessments (tenant_id, enrolment_id, id)',
    );
    await swap(
      'assessments_tenant_id_learner_id_index',
      'CREATE INDEX IF NOT EXISTS assessments_tenant_learner_id ON assessments (tenant_id, learner_id, id)',
    );
    await swap(
      'enrolments_tenant_id_learner_id_index',
      'CREATE INDEX IF NOT EXISTS enrolments_tenant_learner_id ON enrolments (tenant_id, learner_id, id)',
    );
    await swap(
      'enrolments_tenant_id_programme_id_index',
      'CREATE INDEX IF NOT EXISTS enrolments_tenant_programme_status ON enrolments (tenant_id, programme_id, status)',
    );
    await knex.raw(
      'CREATE INDEX IF NOT EXISTS enrolments_tenant_expected_end ON enrolments (tenant_id, expected_end_date)',
    );
    await knex.raw(`CREATE INDEX IF NOT EXISTS enrolments_tenant_watch
      ON enrolments (tenant_id, status, start_date, expected_end_date, learner_id, id)`);
  },
  async down(knex: Knex) {
    await knex.raw('DROP INDEX IF EXISTS enrolments_tenant_watch');
    await knex.raw('DROP INDEX IF EXISTS enrolments_tenant_expected_end');
    const swap = async (drop: string, create: string) => {
      await knex.raw(create);
      await knex.raw(`DROP INDEX IF EXISTS ${drop}`);
    };
    await swap(
      'enrolments_tenant_programme_status',
      'CREATE INDEX IF NOT EXISTS enrolments_tenant_id_programme_id_index ON enrolments (tenant_id, programme_id)',
    );
    await swap(
      'enrolments_tenant_learner_id',
      'CREATE INDEX IF NOT EXISTS enrolments_tenant_id_learner_id_index ON enrolments (tenant_id, learner_id)',
    );
    await swap(
      'assessments_tenant_learner_id',
      'CREATE INDEX IF NOT EXISTS assessments_tenant_id_learner_id_index ON assessments (tenant_id, learner_id)',
    );
    await swap(
      'assessments_tenant_enrolment_id',
      'CREATE INDEX IF NOT EXISTS assessments_tenant_id_enrolment_id_index ON assessments (tenant_id, enrolment_id)',
    );
  },
};
