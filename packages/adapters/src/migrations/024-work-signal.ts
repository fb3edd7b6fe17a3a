import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/** The channel a Postgres worker listens on to learn that work was written (docs/architecture.md, "Background work"). */
export const WORK_CHANNEL = 'fundi_work';

/**
 * Postgres only: each statement that adds events to fan out (`outbox_pending`) or jobs (`jobs`) sends one
 * notification on `fundi_work` whose payload is the table's schema and name, so a worker in another process wakes at
 * once instead of at its next poll, and only for its own schema. Postgres sends it when the transaction commits
 * and folds identical ones of one transaction into one. SQLite has no notifications: nothing to do there.
 */
export const workSignalMigration: Migration = {
  name: '024-work-signal',
  async up(knex: Knex) {
    if (!isPostgres(knex)) return;
    await knex.raw(`CREATE OR REPLACE FUNCTION fundi_notify_work() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${WORK_CHANNEL}', TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME);
        RETURN NULL;
      END $$`);
    for (const table of ['outbox_pending', 'jobs'])
      await knex.raw(
        `CREATE TRIGGER ${table}_notify_work AFTER INSERT ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION fundi_notify_work()`,
      );
  },
  async down(knex: Knex) {
    if (!isPostgres(knex)) return;
    for (const table of ['outbox_pending', 'jobs'])
      await knex.raw(`DROP TRIGGER IF EXISTS ${table}_notify_work ON ${table}`);
    await knex.raw('DROP FUNCTION IF EXISTS fundi_notify_work()');
  },
};

function isPostgres(knex: Knex): boolean {
  return knex.client.config.client === 'pg';
}
