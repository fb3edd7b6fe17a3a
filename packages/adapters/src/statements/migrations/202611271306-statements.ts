import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/** Statements of Results: one row per issued PDF, found by id or by its public verification code. */
export const statementsMigration: Migration = {
  name: 'statements/202611271306-statements',
  async up(knex: Knex) {
    await knex.schema.createTable('statements', (t) => {
      t.string('id').primary();
      t.string('tenant_id').notNullable();
      t.string('learner_id').notNullable();
      t.string('enrolment_id').notNullable();
      t.string('programme_code').notNullable();
      t.string('programme_name').notNullable();
      t.string('outcome').notNullable();
      t.text('modules').notNullable();
      t.string('verification_code').notNullable().unique();
      t.string('sha256').notNullable();
      t.integer('size').notNullable();
      t.string('storage_key').notNullable();
      t.string('holder');
      t.string('issued_at').notNullable();
      t.string('issued_by').notNullable();
      t.string('revoked_at');
      t.string('revoked_by');
      t.text('revoke_reason');
      t.index(['tenant_id', 'learner_id', 'id']);
    });
  },
  async down(knex: Knex) {
    await knex.schema.dropTable('statements');
  },
};
