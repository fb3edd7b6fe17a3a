import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/** Evidence files: the record, one row per version (file and review), and Form A upload tickets. */
export const evidenceMigration: Migration = {
  name: 'evidence/202611230816-evidence',
  formerly: '007-evidence',
  async up(knex: Knex) {
    await knex.schema.createTable('evidence', (t) => {
      t.string('id').primary();
      t.string('tenant_id').notNullable().references('tenants.id');
      t.string('learner_id').notNullable().references('learners.id');
      t.string('enrolment_id').notNullable().references('enrolments.id');
      t.string('module_id').notNullable();
      t.string('evidence_type').notNullable();
      t.integer('version').notNullable();
      t.string('created_at').notNullable();
      t.string('updated_at').notNullable();
      t.string('deleted_at');
      t.index(['tenant_id', 'id']);
      t.index(['tenant_id', 'learner_id']);
      t.index(['deleted_at']);
    });
    await knex.schema.createTable('evidence_versions', (t) => {
      t.string('evidence_id').notNullable().references('evidence.id').onDelete('CASCADE');
      t.integer('version').notNullable();
      t.string('tenant_id').notNullable();
      t.string('filename').notNullable();
      t.string('content_type').notNullable();
      t.bigInteger('size').notNullable();
      t.string('sha256').notNullable();
      t.string('storage_key').notNullable();
      t.string('uploaded_by').notNullable();
      t.string('created_at').notNullable();
      t.string('status').notNullable();
      t.string('reviewed_at');
      t.string('reviewed_by');
      t.text('feedback');
      t.primary(['evidence_id', 'version']);
      t.index(['tenant_id']);
    });
    await knex.schema.createTable('evidence_upload_tickets', (t) => {
      t.string('id').primary();
      t.string('tenant_id').notNullable().references('tenants.id');
      t.string('evidence_id').notNullable();
      t.integer('version').notNullable();
      t.string('learner_id').notNullable();
      t.string('enrolment_id').notNullable();
      t.string('module_id').notNullable();
      t.string('evidence_type').notNullable();
      t.string('filename').notNullable();
      t.bigInteger('size').notNullable();
      t.string('created_by').notNullable();
      t.string('created_at').notNullable();
      t.string('expires_at').notNullable();
      t.string('used_at');
    });
    await knex.schema.createTable('evidence_settings', (t) => {
      t.string('tenant_id').primary().references('tenants.id');
      t.integer('retention_years').notNullable();
    });
    await knex.schema.createTable('evidence_bundles', (t) => {
      t.string('id').primary();
      t.string('tenant_id').notNullable().references('tenants.id');
      t.text('evidence_ids').notNullable();
      t.string('created_by').notNullable();
      t.string('created_at').notNullable();
      t.string('expires_at').notNullable();
    });
  },
  async down(knex: Knex) {
    await knex.schema.dropTable('evidence_bundles');
    await knex.schema.dropTable('evidence_settings');
    await knex.schema.dropTable('evidence_upload_tickets');
    await knex.schema.dropTable('evidence_versions');
    await knex.schema.dropTable('evidence');
  },
};
