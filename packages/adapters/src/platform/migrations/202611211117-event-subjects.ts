import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/** The learner events whose data is the learner's personal data (they existed before this migration). */
const PERSONAL_EVENT_TYPES = ['learner.created', 'learner.updated'];

/**
 * POPIA erasure reaches the outbox: each event names the learner whose personal data it holds, so an
 * erasure finds and redacts them by index instead of parsing every payload; webhook attempts get an index by
 * event so the receivers' replies to those events can be cleared too (the webhooks capability's `webhook_attempts`).
 */
export const eventSubjects: Migration = {
  name: 'platform/202611211117-event-subjects',
  formerly: '004-event-subjects',
  async up(knex: Knex) {
    await knex.schema.alterTable('outbox_events', (t) => {
      t.string('subject_id');
      t.index(['tenant_id', 'subject_id']);
    });
    // Events written before: both types carry the learner id as `data.id` (the JSON is stored as text).
    const idOf = knex.client.config.client === 'pg' ? `(data::json ->> 'id')` : `json_extract(data, '$.id')`;
    await knex('outbox_events')
      .whereIn('type', PERSONAL_EVENT_TYPES)
      .update({ subject_id: knex.raw(idOf) });
    await knex.schema.alterTable('webhook_attempts', (t) => {
      t.index(['event_id']);
    });
  },
  async down(knex: Knex) {
    await knex.schema.alterTable('webhook_attempts', (t) => {
      t.dropIndex(['event_id']);
    });
    await knex.schema.alterTable('outbox_events', (t) => {
      t.dropIndex(['tenant_id', 'subject_id']);
      t.dropColumn('subject_id');
    });
  },
};
