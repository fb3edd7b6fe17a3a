import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

const SAME_USER = 'p.tenant_id = staff_credentials.tenant_id AND p.user_id = staff_credentials.id';

/**
 * Each staff user's notification preferences in the notifications' own table (the triggers they turned off, as
 * JSON), keyed by tenant and user, and the preferences kept until now in the staff directory's
 * `staff_credentials.notification_preferences` copied into it. It reads the staff's `staff_credentials` and leaves
 * that column as it is (no longer written); going down copies the preferences back into it.
 */
export const staffPreferences: Migration = {
  name: 'notifications/202611281053-staff-preferences',
  async up(knex: Knex) {
    await knex.schema.createTable('staff_notification_preferences', (t) => {
      t.string('tenant_id').notNullable();
      t.string('user_id').notNullable();
      t.text('preferences').notNullable();
      t.string('updated_at').notNullable();
      t.primary(['tenant_id', 'user_id']);
    });
    if (!(await knex.schema.hasColumn('staff_credentials', 'notification_preferences'))) return;
    await knex.raw(
      `INSERT INTO staff_notification_preferences (tenant_id, user_id, preferences, updated_at)
       SELECT tenant_id, id, notification_preferences, updated_at FROM staff_credentials
       WHERE notification_preferences IS NOT NULL AND notification_preferences <> '{}'`,
    );
  },
  async down(knex: Knex) {
    if (await knex.schema.hasColumn('staff_credentials', 'notification_preferences'))
      await knex.raw(
        `UPDATE staff_credentials SET notification_preferences =
           (SELECT p.preferences FROM staff_notification_preferences p WHERE ${SAME_USER})
         WHERE EXISTS (SELECT 1 FROM staff_notification_preferences p WHERE ${SAME_USER})`,
      );
    await knex.schema.dropTable('staff_notification_preferences');
  },
};
