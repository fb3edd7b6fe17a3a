import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * Events still to fan out are listed in a queue table of their ids, `outbox_pending`, written with the event and
 * deleted when the dispatcher takes it. Marking the event row itself (the former `dispatched_at`) rewrote every
 * event once more: on SQLite the whole page of each (events of about a kilobyte, such as `learner.created`,
 * fill a page four at a time), on Postgres a new version of the row plus an entry in each of its indexes, which
 * vacuum then had to clear. The queue's rows are a few bytes each (docs/webhooks.md, "Delivery states and the exact rules").
 */
export const outboxPending: Migration = {
  name: 'platform/202611250144-outbox-pending',
  formerly: '022-outbox-pending',
  async up(knex: Knex) {
    await knex.schema.createTable('outbox_pending', (t) => {
      t.string('id').primary();
    });
    await knex.raw('INSERT INTO outbox_pending (id) SELECT id FROM outbox_events WHERE dispatched_at IS NULL');
    // Whichever index on the column this database has (the partial one, or the original without the webhooks').
    await knex.raw('DROP INDEX IF EXISTS outbox_events_undispatched');
    await knex.raw('DROP INDEX IF EXISTS outbox_events_dispatched_at_id_index');
    await knex.raw('ALTER TABLE outbox_events DROP COLUMN dispatched_at');
  },
  async down(knex: Knex) {
    await knex.raw('ALTER TABLE outbox_events ADD COLUMN dispatched_at varchar(255)');
    // The time of the fan-out is not known any more: an event already fanned out gets the time it occurred.
    await knex.raw(
      'UPDATE outbox_events SET dispatched_at = occurred_at WHERE id NOT IN (SELECT id FROM outbox_pending)',
    );
    await knex.raw('CREATE INDEX outbox_events_undispatched ON outbox_events (id) WHERE dispatched_at IS NULL');
    await knex.schema.dropTable('outbox_pending');
  },
};
