import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * The generic jobs table and the worker lease; webhook subscriptions, deliveries and their attempt log, and tenant
 * alerts. It predates capability modules and is not split: it belongs to the platform, whose jobs every capability
 * queues, and creates the webhooks capability's `webhook_subscriptions`, `webhook_deliveries`, `webhook_attempts`
 * and `tenant_alerts`.
 */
export const jobsAndWebhooks: Migration = {
  name: 'platform/202611211031-jobs-and-webhooks',
  formerly: '003-webhooks',
  async up(knex: Knex) {
    await knex.schema.createTable('webhook_subscriptions', (t) => {
      t.string('id').primary();
      t.string('tenant_id').notNullable();
      t.text('url').notNullable();
      t.text('events').notNullable();
      t.boolean('enabled').notNullable();
      t.text('secret_ciphertext').notNullable();
      t.text('previous_secret_ciphertext');
      t.string('previous_secret_expires_at');
      t.string('disabled_reason');
      t.string('created_at').notNullable();
      t.string('updated_at').notNullable();
      t.index(['tenant_id', 'id']);
    });
    await knex.schema.createTable('webhook_deliveries', (t) => {
      t.string('id').primary();
      t.string('tenant_id').notNullable();
      t.string('subscription_id').notNullable();
      t.string('event_id').notNullable();
      t.string('event_type').notNullable();
      t.string('status').notNullable();
      t.integer('attempts').notNullable();
      t.string('next_attempt_at');
      t.string('lease_owner');
      t.string('lease_until');
      t.integer('last_status_code');
      t.string('delivered_at');
      t.string('created_at').notNullable();
      // The claim query walks this index in due order: next_attempt_at is set exactly while a delivery is due
      // (pending, failed) and null otherwise, so no status filter (and no sort) is needed.
      t.index(['next_attempt_at']);
      t.index(['subscription_id', 'status']);
      t.index(['lease_owner']);
    });
    await knex.schema.createTable('webhook_attempts', (t) => {
      t.string('id').primary();
      t.string('delivery_id').notNullable();
      t.string('tenant_id').notNullable();
      t.string('subscription_id').notNullable();
      t.string('event_id').notNullable();
      t.string('event_type').notNullable();
      t.integer('attempt').notNullable();
      t.string('at').notNullable();
      t.integer('status_code');
      t.integer('latency_ms').notNullable();
      t.text('error');
      t.text('response_excerpt');
      t.index(['subscription_id', 'id']);
    });
    await knex.schema.createTable('jobs', (t) => {
      t.string('id').primary();
      t.string('kind').notNullable();
      t.text('payload').notNullable();
      t.string('due_at').notNullable();
      t.string('lease_owner');
      t.string('lease_until');
      t.integer('attempts').notNullable().defaultTo(0);
      t.text('last_error');
      t.string('done_at');
      t.string('created_at').notNullable();
      t.index(['done_at', 'due_at']);
    });
    await knex.schema.createTable('tenant_alerts', (t) => {
      t.string('id').primary();
      t.string('tenant_id').notNullable();
      t.string('kind').notNullable();
      t.text('message').notNullable();
      t.string('created_at').notNullable();
      t.string('read_at');
      t.index(['tenant_id', 'id']);
    });
    // SQLite only uses it (one worker runs at a time there), but it exists everywhere so the schema is one.
    await knex.schema.createTable('worker_lease', (t) => {
      t.string('name').primary();
      t.string('owner').notNullable();
      t.string('lease_until').notNullable();
    });
  },
  async down(knex: Knex) {
    for (const table of [
      'worker_lease',
      'tenant_alerts',
      'jobs',
      'webhook_attempts',
      'webhook_deliveries',
      'webhook_subscriptions',
    ]) {
      await knex.schema.dropTableIfExists(table);
    }
  },
};
