import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/** Staff users as the `/users` directory: a mobile number and per-trigger notification preferences (JSON). */
export const staffDirectory: Migration = {
  name: 'staff/202611241852-staff-directory',
  formerly: '016-staff-directory',
  async up(knex: Knex) {
    await knex.schema.alterTable('staff_credentials', (t) => {
      t.string('mobile');
      t.text('notification_preferences');
    });
  },
  async down(knex: Knex) {
    await knex.schema.alterTable('staff_credentials', (t) => {
      t.dropColumn('mobile');
      t.dropColumn('notification_preferences');
    });
  },
};
