import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * Notifications (one row per message, with its rendered content, status history and provider id), tenants' email
 * template overrides, and per-tenant notification settings (trigger switches, SMTP, WhatsApp; secrets sealed).
 */
export const notificationsMigration: Migration = {
  name: 'notifications/202611241851-notifications',
  formerly: '015-notifications',
  async up(knex: Knex) {
    await knex.schema.createTable('notifications', (t) => {
      t.string('id').primary();
      t.string('tenant_id').notNullable();
      t.string('recipient_type').notNullable();
      t.string('recipient_id').notNullable();
      t.string('channel').notNullable();
      t.string('template').notNullable();
      t.text('to_address');
      t.text('content');
      t.string('status').notNullable();
      t.text('history').notNullable();
      t.integer('attempts').notNullable().defaultTo(0);
      t.string('provider_message_id');
      t.string('trigger_key');
      t.string('dedupe_key');
      t.string('created_by').notNullable();
      t.string('created_at').notNullable();
      t.string('updated_at').notNullable();
      t.unique(['tenant_id', 'dedupe_key']);
      t.index(['tenant_id', 'recipient_id']);
      t.index(['channel', 'provider_message_id']);
    });
    await knex.schema.createTable('notification_templates', (t) => {
      t.string('tenant_id').notNullable();
      t.string('key').notNullable();
      t.text('subject').notNullable();
      t.text('html').notNullable();
      t.text('text').notNullable();
      t.string('updated_at').notNullable();
      t.primary(['tenant_id', 'key']);
    });
    await knex.schema.createTable('notification_settings', (t) => {
      t.string('tenant_id').primary();
      t.text('triggers').notNullable();
      t.text('smtp');
      t.text('whatsapp');
      t.string('phone_number_id');
      t.text('callback_secret');
      t.string('updated_at').notNullable();
      t.index(['phone_number_id']);
    });
  },
  async down(knex: Knex) {
    await knex.schema.dropTable('notification_settings');
    await knex.schema.dropTable('notification_templates');
    await knex.schema.dropTable('notifications');
  },
};
