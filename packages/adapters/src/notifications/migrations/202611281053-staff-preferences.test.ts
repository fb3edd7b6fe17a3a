import { expect, it } from 'vitest';
import { newId } from '@fundi/domain';
import { StaffCredential } from '@fundi/domain/staff';
import { aTenant } from '@fundi/domain/testing';
import { knexFor } from '../../db/open-database.js';
import { migrationSource } from '../../migrations/migration.js';
import { migrationsOf } from '../../storage/capability-storage.js';
import { staffStorage } from '../../staff/staff-storage.js';
import { describeEachStorage } from '../../testing/each-storage.js';
import { CORE_STORAGE } from '../../testing/test-databases.js';
import { notificationStorage } from '../sql-notifications.js';
import { staffPreferences } from './202611281053-staff-preferences.js';

const PARTS = [...CORE_STORAGE, staffStorage, notificationStorage] as const;
const source = migrationSource(migrationsOf(PARTS));
const NOW = new Date('2026-06-01T08:00:00.000Z');
const LATER = '2026-06-02T08:00:00.000Z';

/**
 * A database whose staff users' notification preferences were kept in the staff directory's
 * `staff_credentials.notification_preferences` keeps them: the migration copies them into the notifications' table,
 * where the service reads them; going down copies them back.
 */
describeEachStorage(
  `migration ${staffPreferences.name}`,
  (get) => {
    it("copies each staff user's preferences into the notifications' table, and back when it goes down", async () => {
      const { repos } = get();
      const [a, b] = [aTenant(), aTenant()];
      for (const t of [a, b]) await repos.tenants.insert(t);
      const user = (tenantId: string, email: string) =>
        StaffCredential.create(
          { email, name: 'Thandi Nkosi', role: 'assessor' },
          { id: newId('usr'), tenantId, now: NOW },
        );
      const off = user(a.id, 'off@example.org');
      const none = user(a.id, 'none@example.org');
      const empty = user(a.id, 'empty@example.org');
      const other = user(b.id, 'other@example.org');
      for (const u of [off, none, empty, other]) await repos.staffCredentials.insert(u);
      const knex = knexFor(get().target!);
      try {
        await knex.migrate.down({ migrationSource: source, name: staffPreferences.name });
        expect(await knex.schema.hasTable('staff_notification_preferences')).toBe(false);
        const keep = async (id: string, prefs: string | null) =>
          knex('staff_credentials').where({ id }).update({ notification_preferences: prefs });
        await keep(off.id, JSON.stringify({ new_evidence: false, security_alert: true }));
        await keep(none.id, null);
        await keep(empty.id, '{}');
        await keep(other.id, JSON.stringify({ moderation_due: false }));
        await knex.migrate.latest({ migrationSource: source });

        const ids = [off.id, none.id, empty.id, other.id];
        expect(Object.fromEntries(await repos.staffPreferences.forUsers(a.id, ids))).toEqual({
          [off.id]: { new_evidence: false, security_alert: true },
        });
        expect(Object.fromEntries(await repos.staffPreferences.forUsers(b.id, ids))).toEqual({
          [other.id]: { moderation_due: false },
        });
        // The old column stays as it was.
        const column = await knex('staff_credentials').where({ id: off.id }).first('notification_preferences');
        expect(JSON.parse(column.notification_preferences)).toEqual({ new_evidence: false, security_alert: true });

        // Changed since: going down puts the current preferences back where the former code reads them.
        await repos.staffPreferences.put(a.id, none.id, { report_ready: false }, LATER);
        await knex.migrate.down({ migrationSource: source, name: staffPreferences.name });
        const back = await knex('staff_credentials')
          .whereIn('id', [off.id, none.id, empty.id])
          .select('id', 'notification_preferences');
        expect(
          Object.fromEntries(
            back.map((r) => [r.id, r.notification_preferences && JSON.parse(r.notification_preferences)]),
          ),
        ).toEqual({
          [off.id]: { new_evidence: false, security_alert: true },
          [none.id]: { report_ready: false },
          [empty.id]: {},
        });
        await knex.migrate.latest({ migrationSource: source });
        expect((await repos.staffPreferences.forUsers(a.id, [none.id])).get(none.id)).toEqual({ report_ready: false });
      } finally {
        await knex.destroy();
      }
    });
  },
  ['sqlite', 'postgres'],
  PARTS,
);
