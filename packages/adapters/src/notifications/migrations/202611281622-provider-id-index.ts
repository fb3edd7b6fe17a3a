import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * The index that finds a notification by its provider's message id (a status callback) holds only the notifications
 * that have one: a notification gets its id when it is sent, so a bulk send's INSERT no longer adds an entry per row
 * (`(channel, NULL)`) to it (docs/performance.md, "WhatsApp bulk sends on Postgres"). The lookup (`channel = ? AND
 * provider_message_id = ?`) implies the predicate on SQLite and Postgres, so the release before, whose lookup is
 * the same, uses the new index during a rolling deploy; the full index is dropped once the partial one exists.
 */
export const notificationProviderIdIndex: Migration = {
  name: 'notifications/202611281622-provider-id-index',
  async up(knex: Knex) {
    await knex.raw(
      'CREATE INDEX notifications_provider_message ON notifications (channel, provider_message_id) WHERE provider_message_id IS NOT NULL',
    );
    await knex.schema.alterTable('notifications', (t) => {
      t.dropIndex(['channel', 'provider_message_id']);
    });
  },
  async down(knex: Knex) {
    await knex.schema.alterTable('notifications', (t) => {
      t.index(['channel', 'provider_message_id']);
    });
    await knex.raw('DROP INDEX notifications_provider_message');
  },
};
