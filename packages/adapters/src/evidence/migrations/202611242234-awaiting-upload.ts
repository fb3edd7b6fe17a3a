import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * Evidence records made before their file (an `evidence` import): such a record has `version` 0 and no row in
 * `evidence_versions`, so it stores no bytes and counts nowhere in storage use; its file name and creator wait
 * here until the upload makes version 1. Any record may carry a description.
 */
export const evidenceAwaitingUpload: Migration = {
  name: 'evidence/202611242234-awaiting-upload',
  formerly: '019-evidence-awaiting-upload',
  async up(knex: Knex) {
    await knex.schema.alterTable('evidence', (t) => {
      t.text('description');
      t.string('awaiting_filename');
      t.string('created_by');
    });
  },
  async down(knex: Knex) {
    await knex.schema.alterTable('evidence', (t) => {
      t.dropColumn('created_by');
      t.dropColumn('awaiting_filename');
      t.dropColumn('description');
    });
  },
};
