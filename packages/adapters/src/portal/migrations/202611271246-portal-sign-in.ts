import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * The learner portal's sign-ins (one-time links and codes, stored by hash) and sessions (only the hash of the
 * cookie's token is stored): docs/dashboard.md, "Learner portal".
 */
export const portalSignInMigration: Migration = {
  name: 'portal/202611271246-portal-sign-in',
  async up(knex: Knex) {
    await knex.schema.createTable('portal_sign_ins', (t) => {
      t.string('token_hash').primary();
      t.string('tenant_id').notNullable();
      t.string('learner_id').notNullable();
      t.string('channel').notNullable();
      t.string('created_at').notNullable();
      t.string('expires_at').notNullable();
      t.string('used_at');
      t.index(['tenant_id', 'learner_id']);
      t.index(['expires_at']);
    });
    await knex.schema.createTable('portal_sessions', (t) => {
      t.string('token_hash').primary();
      t.string('tenant_id').notNullable();
      t.string('learner_id').notNullable();
      t.string('csrf_token').notNullable();
      t.string('created_at').notNullable();
      t.string('expires_at').notNullable();
      t.index(['tenant_id', 'learner_id']);
      t.index(['expires_at']);
    });
  },
  async down(knex: Knex) {
    await knex.schema.dropTable('portal_sessions');
    await knex.schema.dropTable('portal_sign_ins');
  },
};
