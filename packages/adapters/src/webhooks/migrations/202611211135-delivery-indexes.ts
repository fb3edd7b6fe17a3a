import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * The delivery hot path writes every row three times (insert, lease, outcome). Without an index on `lease_owner`
 * the lease is a change to unindexed columns only: on Postgres a HOT update (no index entries, given room on the
 * page, hence the fill factor), on SQLite one b-tree less. Releasing a worker's leases (shutdown only) walks the
 * `next_attempt_at` index instead: a leased delivery is always due.
 */
export const deliveryIndexes: Migration = {
  name: 'webhooks/202611211135-delivery-indexes',
  formerly: '005-delivery-indexes',
  async up(knex: Knex) {
    await knex.schema.alterTable('webhook_deliveries', (t) => t.dropIndex(['lease_owner']));
    if (knex.client.config.client === 'pg') await knex.raw('ALTER TABLE webhook_deliveries SET (fillfactor = 80)');
  },
  async down(knex: Knex) {
    if (knex.client.config.client === 'pg') await knex.raw('ALTER TABLE webhook_deliveries RESET (fillfactor)');
    await knex.schema.alterTable('webhook_deliveries', (t) => t.index(['lease_owner']));
  },
};
