import { expect, it } from 'vitest';
import { newId } from '@fundi/domain';
import { aTenant } from '@fundi/domain/testing';
import { knexFor } from '../../db/open-database.js';
import { migrationSource } from '../../migrations/migration.js';
import { migrationsOf } from '../../storage/capability-storage.js';
import { describeEachStorage } from '../../testing/each-storage.js';
import { indexNames } from '../../testing/schema-dump.js';
import { CORE_STORAGE } from '../../testing/test-databases.js';
import { notificationStorage } from '../sql-notifications.js';
import { notificationDedupeIndex } from './202611281953-dedupe-index.js';

const PARTS = [...CORE_STORAGE, notificationStorage] as const;
const source = migrationSource(migrationsOf(PARTS));
const AT = '2026-06-01T08:00:00.000Z';
const COLUMNS =
  'id, tenant_id, recipient_type, recipient_id, channel, template, status, history, attempts, provider_message_id, dedupe_key, created_by, created_at, updated_at';
/** The dedupe insert of this release and of the release before: its conflict target names the predicate. */
const DEDUPE = ' ON CONFLICT (tenant_id, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING';

/**
 * After the migration a dedupe key is still unique per tenant (the insert that names the predicate finds the partial
 * index), notifications without a key are not in the index, and going down puts the full unique index back.
 */
describeEachStorage(
  `migration ${notificationDedupeIndex.name}`,
  (get) => {
    it('keeps each dedupe key once per tenant through the partial index, and goes down and up again', async () => {
      const { repos, db } = get();
      const [t, other] = [aTenant(), aTenant()];
      await repos.tenants.insert(t);
      await repos.tenants.insert(other);
      const insert = (tenantId: string, dedupe: string | null, conflict = DEDUPE) =>
        db!.run(
          `INSERT INTO notifications (${COLUMNS}) VALUES (?, ?, 'learner', 'lrn_1', 'whatsapp', 'welcome', 'queued', '[]', 0, NULL, ?, 'key_1', ?, ?)${conflict}`,
          [newId('ntf'), tenantId, dedupe, AT, AT],
        );
      expect((await insert(t.id, 'k1')).changes).toBe(1);
      expect((await insert(t.id, 'k1')).changes).toBe(0);
      expect((await insert(other.id, 'k1')).changes).toBe(1);
      expect((await insert(t.id, null)).changes).toBe(1);
      expect((await insert(t.id, null)).changes).toBe(1);
      // Without the conflict clause a second key is refused, not written: the index is unique.
      await expect(insert(t.id, 'k1', '')).rejects.toThrow();

      const knex = knexFor(get().target!);
      try {
        const names = () => indexNames(knex, db!.dialect, 'notifications');
        const count = async () =>
          Number(((await knex('notifications').count({ n: '*' })) as { n: number | string }[])[0]!.n);
        expect(await names()).toContain('notifications_dedupe');
        expect(await names()).not.toContain('notifications_tenant_id_dedupe_key_unique');
        const before = await count();
        await knex.migrate.down({ migrationSource: source, name: notificationDedupeIndex.name });
        expect(await names()).not.toContain('notifications_dedupe');
        expect(await names()).toContain('notifications_tenant_id_dedupe_key_unique');
        // The full index takes the same statement, and refuses the same key.
        await knex.raw(
          `INSERT INTO notifications (${COLUMNS}) VALUES (?, ?, 'learner', 'lrn_1', 'whatsapp', 'welcome', 'queued', '[]', 0, NULL, 'k1', 'key_1', ?, ?)${DEDUPE}`,
          [newId('ntf'), t.id, AT, AT],
        );
        expect(await count()).toBe(before);
        await knex.migrate.latest({ migrationSource: source });
        expect(await names()).toContain('notifications_dedupe');
        expect(await names()).not.toContain('notifications_tenant_id_dedupe_key_unique');
      } finally {
        await knex.destroy();
      }
    });
  },
  ['sqlite', 'postgres'],
  PARTS,
);
