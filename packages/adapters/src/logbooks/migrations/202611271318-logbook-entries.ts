import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * Workplace logbook entries (docs/api.md, "Logbooks"): one row per entry, the supervisor and the sign-off record as
 * JSON text.
 */
export const logbookEntriesMigration: Migration = {
  name: 'logbooks/202611271318-logbook-entries',
  async up(knex: Knex) {
    await knex.schema.createTable('logbook_entries', (t) => {
      t.string('id').primary();
      t.string('tenant_id').notNullable();
      t.string('learner_id').notNullable();
      t.string('enrolment_id').notNullable();
      t.string('module_code').notNullable();
      t.string('date').notNullable();
      t.double('hours').notNullable();
      t.text('activity').notNullable();
      t.text('workplace').notNullable();
      t.text('supervisor').notNullable();
      t.text('evidence_ids').notNullable();
      t.string('status').notNullable();
      t.string('submitted_at');
      t.string('signed_at');
      t.text('sign_off');
      t.string('created_by').notNullable();
      t.string('created_at').notNullable();
      t.string('updated_at').notNullable();
      t.index(['tenant_id', 'learner_id', 'id']);
    });
  },
  async down(knex: Knex) {
    await knex.schema.dropTable('logbook_entries');
  },
};
