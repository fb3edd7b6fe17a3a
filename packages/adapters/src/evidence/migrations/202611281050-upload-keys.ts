import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

const COLUMNS = 'tenant_id, upload_key, learner_id, evidence_id, created_at, expires_at';

/** The table of upload keys. */
async function uploadKeys(knex: Knex, table: string): Promise<void> {
  await knex.schema.createTable(table, (t) => {
    t.string('tenant_id').notNullable();
    t.string('upload_key').notNullable();
    t.string('learner_id').notNullable();
    t.string('evidence_id');
    t.string('created_at').notNullable();
    t.string('expires_at').notNullable();
    t.primary(['tenant_id', 'upload_key']);
    t.index(['expires_at']);
  });
}

/**
 * Upload keys are the evidence's (docs/dashboard.md, "Learner portal"): a retried upload finds its key claimed or
 * done and stores nothing twice. The keys the portal kept (`portal_uploads`) are copied, so an upload retried
 * across the upgrade still stores once. That table stays as it is, no longer written, so that processes of the
 * release before keep serving uploads during a rolling deploy (docs/architecture.md, "Migrations"); going down
 * drops the new table, and the keys written since (each lives a day) go with it.
 */
export const evidenceUploadKeys: Migration = {
  name: 'evidence/202611281050-upload-keys',
  async up(knex: Knex) {
    await uploadKeys(knex, 'evidence_upload_keys');
    // A store made without the portal (a test's) never had the former table.
    if (!(await knex.schema.hasTable('portal_uploads'))) return;
    await knex.raw(`INSERT INTO evidence_upload_keys (${COLUMNS}) SELECT ${COLUMNS} FROM portal_uploads`);
  },
  async down(knex: Knex) {
    await knex.schema.dropTable('evidence_upload_keys');
  },
};
