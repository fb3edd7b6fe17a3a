import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * Versions by upload time within a tenant: the overview's learners at risk ask which enrolments had evidence
 * uploaded in the last 30 days (docs/dashboard.md, "Pages": the overview) without reading every version of the tenant.
 */
export const evidenceUploadTimeIndex: Migration = {
  name: 'evidence/202611271605-upload-time-index',
  async up(knex: Knex) {
    await knex.raw(
      'CREATE INDEX IF NOT EXISTS evidence_versions_tenant_created ON evidence_versions (tenant_id, created_at)',
    );
  },
  async down(knex: Knex) {
    await knex.raw('DROP INDEX IF EXISTS evidence_versions_tenant_created');
  },
};
