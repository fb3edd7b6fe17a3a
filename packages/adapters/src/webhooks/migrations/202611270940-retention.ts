import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * Indexes for the retention of the webhook log (docs/architecture.md, "Retention"), so each hourly prune reads only
 * what it deletes: attempts and events by time; settled (delivered or dead) deliveries by creation time; and, for
 * "is this event still owed to a receiver?", the unsettled deliveries by event. A delivery moves from the second
 * partial index to the first when it settles; the unsettled one stays as small as the work still to do. The events'
 * index is on the platform's `outbox_events`.
 */
export const retentionMigration: Migration = {
  name: 'webhooks/202611270940-retention',
  formerly: '027-retention',
  async up(knex: Knex) {
    await knex.raw('CREATE INDEX webhook_attempts_at ON webhook_attempts (at)');
    await knex.raw('CREATE INDEX outbox_events_occurred_at ON outbox_events (occurred_at)');
    await knex.raw(
      `CREATE INDEX webhook_deliveries_settled ON webhook_deliveries (created_at) WHERE status IN ('delivered', 'dead')`,
    );
    await knex.raw(
      `CREATE INDEX webhook_deliveries_owed ON webhook_deliveries (event_id) WHERE status NOT IN ('delivered', 'dead')`,
    );
  },
  async down(knex: Knex) {
    for (const i of [
      'webhook_deliveries_owed',
      'webhook_deliveries_settled',
      'outbox_events_occurred_at',
      'webhook_attempts_at',
    ])
      await knex.raw(`DROP INDEX ${i}`);
  },
};
