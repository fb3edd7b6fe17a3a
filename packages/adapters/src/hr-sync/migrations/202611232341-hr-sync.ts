import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * HR sync: one configuration per tenant, and the inbound log. Also indexes the learners capability's `learners` by
 * employee reference (`learners_tenant_employee_ref_id`).
 */
export const hrSyncMigration: Migration = {
  name: 'hr-sync/202611232341-hr-sync',
  formerly: '011-hr-sync',
  async up(knex: Knex) {
    // Inbound events match learners by employeeRef (`... AND employee_ref = ? ORDER BY id LIMIT 1`). Without
    // statistics SQLite answers that from the (tenant_id, id) index, walking every learner of the tenant; with
    // the id in this index the lookup is one seek.
    // IF NOT EXISTS: the learners' own `employee-ref-index` makes the same index where this one has not run.
    await knex.schema.raw(
      'CREATE INDEX IF NOT EXISTS learners_tenant_employee_ref_id ON learners (tenant_id, employee_ref, id)',
    );
    await knex.schema.createTable('hr_sync_configs', (t) => {
      t.string('tenant_id').primary().references('tenants.id');
      t.boolean('enabled').notNullable();
      t.string('system').notNullable();
      t.string('outbound_url', 2048);
      t.string('header_name').notNullable();
      t.text('field_mapping').notNullable();
      t.string('key_hash');
      t.string('key_prefix');
      t.string('previous_key_hash');
      t.string('previous_key_expires_at');
      t.string('subscription_id');
      t.string('created_at').notNullable();
      t.string('updated_at').notNullable();
      t.index(['key_hash']);
      t.index(['previous_key_hash']);
    });
    await knex.schema.createTable('hr_events', (t) => {
      t.string('id').primary();
      t.string('tenant_id').notNullable();
      t.string('event_key').notNullable();
      // Set only on processed entries: one processed entry per event (NULLs never collide).
      t.string('processed_key');
      t.string('hr_event_id');
      t.string('event').notNullable();
      t.string('received_at').notNullable();
      t.string('result').notNullable();
      t.text('response');
      t.text('error');
      t.string('learner_id');
      t.text('data');
      t.boolean('redacted').notNullable().defaultTo(false);
      t.unique(['tenant_id', 'processed_key'], { indexName: 'hr_events_processed_key_unique' });
      t.index(['tenant_id', 'id']);
      t.index(['tenant_id', 'learner_id']);
    });
  },
  async down(knex: Knex) {
    await knex.schema.dropTable('hr_events');
    await knex.schema.dropTable('hr_sync_configs');
    await knex.schema.alterTable('learners', (t) =>
      t.dropIndex(['tenant_id', 'employee_ref', 'id'], 'learners_tenant_employee_ref_id'),
    );
  },
};
