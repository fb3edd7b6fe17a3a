import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * The unique index that keeps a trigger from notifying twice holds only the notifications that have a dedupe key:
 * a bulk send's notifications have none, so its INSERT no longer adds an entry per row (`(tenant_id, NULL)`) to it
 * (docs/performance.md, "WhatsApp bulk sends on Postgres"). A key stays unique per tenant exactly as before (a NULL
 * never conflicted). The dedupe insert names the index's predicate in its conflict target (`ON CONFLICT (tenant_id,
 * dedupe_key) WHERE dedupe_key IS NOT NULL`), and so did the release before this one, so both find the partial index
 * during a rolling deploy; releases older than that name no predicate, and both databases refuse their statement
 * against a partial index: deploy from the release before, not from an older one. The partial index is made before
 * the full one goes, so a key is never unguarded.
 */
export const notificationDedupeIndex: Migration = {
  name: 'notifications/202611281953-dedupe-index',
  async up(knex: Knex) {
    await knex.raw(
      'CREATE UNIQUE INDEX notifications_dedupe ON notifications (tenant_id, dedupe_key) WHERE dedupe_key IS NOT NULL',
    );
    await knex.schema.alterTable('notifications', (t) => {
      t.dropUnique(['tenant_id', 'dedupe_key']);
    });
  },
  async down(knex: Knex) {
    await knex.schema.alterTable('notifications', (t) => {
      t.unique(['tenant_id', 'dedupe_key']);
    });
    await knex.raw('DROP INDEX notifications_dedupe');
  },
};
