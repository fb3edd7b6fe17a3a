import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/** Programmes, enrolments (with status history), assessments and their moderation (docs/api.md, "Training record"). */
export const training: Migration = {
  name: 'training/202611211030-training',
  formerly: '002-training',
  async up(knex: Knex) {
    await knex.schema.createTable('programmes', (t) => {
      t.string('id').primary();
      t.string('tenant_id').notNullable().references('tenants.id');
      t.string('code').notNullable();
      t.string('name').notNullable();
      t.string('type').notNullable();
      t.string('qualification_id');
      t.integer('nqf_level');
      // The module list is read and written whole with its programme, so it is one JSON text column.
      t.text('modules').notNullable();
      t.string('status').notNullable();
      t.string('retired_at');
      t.string('created_at').notNullable();
      t.string('updated_at').notNullable();
      t.unique(['tenant_id', 'code'], { indexName: 'programmes_tenant_code_unique' });
      t.index(['tenant_id', 'id']);
    });
    await knex.schema.createTable('enrolments', (t) => {
      t.string('id').primary();
      t.string('tenant_id').notNullable().references('tenants.id');
      t.string('learner_id').notNullable().references('learners.id');
      t.string('programme_id').notNullable().references('programmes.id');
      t.string('programme_code').notNullable();
      t.string('start_date').notNullable();
      t.string('expected_end_date');
      t.string('funding_source');
      t.string('status').notNullable();
      t.string('achievement_date');
      t.string('created_at').notNullable();
      t.string('updated_at').notNullable();
      t.index(['tenant_id', 'id']);
      t.index(['tenant_id', 'learner_id']);
      t.index(['tenant_id', 'programme_id']);
    });
    // One open enrolment per learner per programme; a partial index works on both databases.
    await knex.raw(`CREATE UNIQUE INDEX enrolments_open_unique ON enrolments (tenant_id, learner_id, programme_id)
      WHERE status IN ('enrolled', 'in_progress', 'suspended')`);
    await knex.schema.createTable('enrolment_status_changes', (t) => {
      t.string('id').primary();
      t.string('tenant_id').notNullable();
      t.string('enrolment_id').notNullable().references('enrolments.id');
      t.string('from_status');
      t.string('to_status').notNullable();
      t.text('reason');
      t.string('effective_date').notNullable();
      t.string('changed_by').notNullable();
      t.string('changed_at').notNullable();
      t.index(['tenant_id', 'enrolment_id']);
    });
    await knex.schema.createTable('assessments', (t) => {
      t.string('id').primary();
      t.string('tenant_id').notNullable().references('tenants.id');
      t.string('learner_id').notNullable().references('learners.id');
      t.string('enrolment_id').notNullable().references('enrolments.id');
      t.string('programme_id').notNullable();
      t.string('programme_code').notNullable();
      t.string('module_code').notNullable();
      t.string('assessment_type').notNullable();
      t.string('outcome').notNullable();
      t.string('assessment_date').notNullable();
      t.string('assessor_id');
      t.string('recorded_by').notNullable();
      t.string('created_at').notNullable();
      t.index(['tenant_id', 'id']);
      t.index(['tenant_id', 'enrolment_id']);
      t.index(['tenant_id', 'learner_id']);
      t.index(['tenant_id', 'programme_id', 'assessment_date']);
    });
    await knex.schema.createTable('moderations', (t) => {
      t.string('id').primary();
      t.string('tenant_id').notNullable();
      t.string('assessment_id').notNullable().references('assessments.id');
      t.string('decision').notNullable();
      t.text('notes').notNullable();
      t.string('moderator_id').notNullable();
      t.string('moderator_email');
      t.string('moderated_at').notNullable();
      t.unique(['assessment_id'], { indexName: 'moderations_assessment_unique' });
      t.index(['tenant_id', 'id']);
    });
  },
  async down(knex: Knex) {
    for (const t of ['moderations', 'assessments', 'enrolment_status_changes', 'enrolments', 'programmes']) {
      await knex.schema.dropTableIfExists(t);
    }
  },
};
