import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * Dashboard sign-in: staff credentials (email, role, scrypt password hash, one-time set-password token) and
 * sessions (only the hash of the cookie's token is stored).
 */
export const staffSessions: Migration = {
  name: 'staff/202611232344-staff-sessions',
  formerly: '013-staff-sessions',
  async up(knex: Knex) {
    await knex.schema.createTable('staff_credentials', (t) => {
      t.string('id').primary();
      t.string('tenant_id').notNullable();
      t.string('email').notNullable();
      t.string('name').notNullable();
      t.string('role').notNullable();
      t.string('status').notNullable();
      t.string('password_hash');
      t.string('set_password_token_hash');
      t.string('set_password_expires_at');
      t.string('created_at').notNullable();
      t.string('updated_at').notNullable();
      t.unique(['tenant_id', 'email']);
      t.index(['set_password_token_hash']);
    });
    await knex.schema.createTable('dashboard_sessions', (t) => {
      t.string('token_hash').primary();
      t.string('tenant_id').notNullable();
      t.string('user_id').notNullable();
      t.string('csrf_token').notNullable();
      t.string('created_at').notNullable();
      t.string('expires_at').notNullable();
      t.index(['tenant_id', 'user_id']);
      t.index(['expires_at']);
    });
  },
  async down(knex: Knex) {
    await knex.schema.dropTable('dashboard_sessions');
    await knex.schema.dropTable('staff_credentials');
  },
};
