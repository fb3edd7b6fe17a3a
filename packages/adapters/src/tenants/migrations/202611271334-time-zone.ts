import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/** The tenant's time zone for the dashboard's display (docs/dashboard.md, "Pages"); empty is Africa/Johannesburg. */
export const tenantTimeZone: Migration = {
  name: 'tenants/202611271334-time-zone',
  async up(knex: Knex) {
    await knex.schema.alterTable('tenants', (t) => {
      t.string('time_zone', 64).nullable();
    });
  },
  async down(knex: Knex) {
    await knex.schema.alterTable('tenants', (t) => {
      t.dropColumn('time_zone');
    });
  },
};
