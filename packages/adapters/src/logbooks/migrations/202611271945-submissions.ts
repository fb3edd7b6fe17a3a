import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * The sign-off request an entry was last submitted in (docs/api.md, "Logbooks"): entries submitted together to one
 * supervisor share it, and the supervisor's link names it; read by request when the link is opened.
 */
export const logbookSubmissions: Migration = {
  name: 'logbooks/202611271945-submissions',
  async up(knex: Knex) {
    await knex.schema.alterTable('logbook_entries', (t) => {
      t.string('submission_id').nullable();
    });
    await knex.raw(
      'CREATE INDEX IF NOT EXISTS logbook_entries_tenant_submission ON logbook_entries (tenant_id, submission_id)',
    );
  },
  async down(knex: Knex) {
    await knex.raw('DROP INDEX IF EXISTS logbook_entries_tenant_submission');
    await knex.schema.alterTable('logbook_entries', (t) => {
      t.dropColumn('submission_id');
    });
  },
};
