import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * The notifications retention deletes (docs/architecture.md, "Retention"): those no longer queued, by their last
 * change. Partial, so the queued ones (the send jobs' work) add nothing to it until they leave the queue.
 */
export const notificationRetentionIndexes: Migration = {
  name: 'notifications/202611270941-retention-indexes',
  formerly: '028-retention-indexes',
  async up(knex: Knex) {
    await knex.raw(`CREATE INDEX notifications_settled ON notifications (updated_at) WHERE status <> 'queued'`);
  },
  async down(knex: Knex) {
    await knex.raw('DROP INDEX notifications_settled');
  },
};
