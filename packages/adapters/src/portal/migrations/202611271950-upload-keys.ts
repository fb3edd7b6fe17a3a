import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * The portal's evidence uploads by their form's key (docs/dashboard.md, "Learner portal"): a retried upload finds
 * the key claimed or done and stores nothing twice. Kept a day.
 */
export const portalUploadKeys: Migration = {
  name: 'portal/202611271950-upload-keys',
  async up(knex: Knex) {
    await knex.schema.createTable('portal_uploads', (t) => {
      t.string('tenant_id').notNullable();
      t.string('upload_key').notNullable();
      t.string('learner_id').notNullable();
      t.string('evidence_id');
      t.string('created_at').notNullable();
      t.string('expires_at').notNullable();
      t.primary(['tenant_id', 'upload_key']);
      t.index(['expires_at']);
    });
  },
  async down(knex: Knex) {
    await knex.schema.dropTable('portal_uploads');
  },
};
