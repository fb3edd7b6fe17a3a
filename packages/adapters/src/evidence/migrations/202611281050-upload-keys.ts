import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

const COLUMNS = 'tenant_id, upload_key, learner_id, evidence_id, created_at, expires_at';

/** The table of upload keys, under either name. */
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
 * done and stores nothing twice. The table the portal kept them in (`portal_uploads`) is copied, keys and all, so an
 * upload retried across the upgrade still stores once, and then dropped; going down puts them back there.
 */
export const evidenceUploadKeys: Migration = {
  name: 'evidence/202611281050-upload-keys',
  async up(knex: Knex) {
    await uploadKeys(knex, 'evidence_upload_keys');
    // A store made without the portal (a test's) never had the former table.
    if (!(await knex.schema.hasTable('portal_uploads'))) return;
    await knex.raw(`INSERT INTO evidence_upload_keys (${COLUMNS}) SELECT ${COLUMNS} FROM portal_uploads`);
    await knex.schema.dropTable('portal_uploads');
  },
  async down(knex: Knex) {
    await uploadKeys(knex, 'portal_uploads');
    await knex.raw(`INSERT INTO portal_uploads (${COLUMNS}) SELECT ${COLUMNS} FROM evidence_upload_keys`);
    await knex.schema.dropTable('evidence_upload_keys');
  },
};
