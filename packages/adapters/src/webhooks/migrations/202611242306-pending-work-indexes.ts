import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * The outbox and the deliveries are queues: the worker looks only for the rows still to do, which are few beside
 * the rows done. Partial indexes hold just those (undispatched events by id; due or retrying deliveries by due
 * time), so picking work walks the backlog alone, and marking a row done adds no entry to them (a row leaves a
 * partial index when it stops matching its condition). Both databases use them: an event still to dispatch is
 * `dispatched_at IS NULL`, and `next_attempt_at <= ?` implies `next_attempt_at IS NOT NULL`. The outbox index is
 * on the platform's `outbox_events`.
 */
export const pendingWorkIndexes: Migration = {
  name: 'webhooks/202611242306-pending-work-indexes',
  formerly: '021-pending-work-indexes',
  async up(knex: Knex) {
    // A database whose platform tables were migrated first may have the outbox queue of `outbox-pending` already,
    // without `dispatched_at`: then the outbox has nothing to index here.
    if (await knex.schema.hasColumn('outbox_events', 'dispatched_at')) {
      await knex.raw('CREATE INDEX outbox_events_undispatched ON outbox_events (id) WHERE dispatched_at IS NULL');
      await knex.schema.alterTable('outbox_events', (t) => t.dropIndex(['dispatched_at', 'id']));
    }
    await knex.raw(
      'CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE next_attempt_at IS NOT NULL',
    );
    await knex.schema.alterTable('webhook_deliveries', (t) => t.dropIndex(['next_attempt_at']));
  },
  async down(knex: Knex) {
    await knex.schema.alterTable('webhook_deliveries', (t) => t.index(['next_attempt_at']));
    await knex.raw('DROP INDEX webhook_deliveries_due');
    if (await knex.schema.hasColumn('outbox_events', 'dispatched_at')) {
      await knex.schema.alterTable('outbox_events', (t) => t.index(['dispatched_at', 'id']));
      await knex.raw('DROP INDEX IF EXISTS outbox_events_undispatched');
    }
  },
};
