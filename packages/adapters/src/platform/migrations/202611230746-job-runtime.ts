import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/** Lanes, attempts limits, idempotency keys and progress for the job runtime (docs/architecture.md). */
export const jobRuntime: Migration = {
  name: 'platform/202611230746-job-runtime',
  formerly: '006-job-runtime',
  async up(knex: Knex) {
    await knex.schema.alterTable('jobs', (t) => {
      t.string('lane').notNullable().defaultTo('short');
      t.integer('max_attempts').notNullable().defaultTo(10);
      t.string('idempotency_key');
      t.integer('progress_processed');
      t.integer('progress_total');
      t.unique(['idempotency_key']);
      t.index(['lane', 'done_at', 'due_at']);
    });
  },
  async down(knex: Knex) {
    await knex.schema.alterTable('jobs', (t) => {
      t.dropIndex(['lane', 'done_at', 'due_at']);
      t.dropUnique(['idempotency_key']);
    });
    for (const c of ['lane', 'max_attempts', 'idempotency_key', 'progress_processed', 'progress_total']) {
      await knex.schema.alterTable('jobs', (t) => t.dropColumn(c));
    }
  },
};
