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
import { notificationProviderIdIndex } from './202611281622-provider-id-index.js';

const PARTS = [...CORE_STORAGE, notificationStorage] as const;
const source = migrationSource(migrationsOf(PARTS));
const AT = '2026-06-01T08:00:00.000Z';
const COLUMNS =
  'id, tenant_id, recipient_type, recipient_id, channel, template, status, history, attempts, provider_message_id, dedupe_key, created_by, created_at, updated_at';

/**
 * After the migration, a status callback's lookup (`channel = ? AND provider_message_id = ?`, the same statement in
 * the release before) is answered through the partial index, which holds only notifications with a provider id;
 * the dedupe insert still finds its unique index (since `202611281953-dedupe-index` a partial one, which only a
 * conflict target naming its predicate finds); going down puts the full index back.
 */
describeEachStorage(
  `migration ${notificationProviderIdIndex.name}`,
  (get, kind) => {
    it('finds a notification by its provider id through the partial index, and keeps the dedupe target', async () => {
      const { repos, db } = get();
      const t = aTenant();
      await repos.tenants.insert(t);
      const insert = (pmid: string | null, dedupe: string | null, conflict: string) =>
        db!.run(
          `INSERT INTO notifications (${COLUMNS}) VALUES (?, ?, 'learner', 'lrn_1', 'whatsapp', 'welcome', 'queued', '[]', 0, ?, ?, 'key_1', ?, ?)${conflict}`,
          [newId('ntf'), t.id, pmid, dedupe, AT, AT],
        );
      await insert('wamid.1', null, '');
      await insert(null, null, '');
      const dedupe = ' ON CONFLICT (tenant_id, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING';
      expect((await insert(null, 'k1', dedupe)).changes).toBe(1);
      expect((await insert(null, 'k1', dedupe)).changes).toBe(0);
      expect((await repos.notifications.findByProviderMessageId('whatsapp', 'wamid.1'))?.providerMessageId).toBe(
        'wamid.1',
      );
      const lookup = 'SELECT * FROM notifications WHERE channel = ? AND provider_message_id = ?';
      // In one transaction, so Postgres' setting holds for its EXPLAIN (it plans a two-row table by a scan unless told
      // not to).
      const plan = await db!.transaction(async (tx) => {
        if (kind === 'postgres') await tx.run('SET LOCAL enable_seqscan = off', []);
        return JSON.stringify(
          await tx.all(`${kind === 'postgres' ? 'EXPLAIN' : 'EXPLAIN QUERY PLAN'} ${lookup}`, ['whatsapp', 'wamid.1']),
        );
      });
      expect(plan).toContain('notifications_provider_message');

      const knex = knexFor(get().target!);
      try {
        await knex.migrate.down({ migrationSource: source, name: notificationProviderIdIndex.name });
        const names = () => indexNames(knex, db!.dialect, 'notifications');
        expect(await names()).not.toContain('notifications_provider_message');
        expect(await names()).toContain('notifications_channel_provider_message_id_index');
        await knex.migrate.latest({ migrationSource: source });
        expect(await names()).toContain('notifications_provider_message');
        expect(await names()).not.toContain('notifications_channel_provider_message_id_index');
      } finally {
        await knex.destroy();
      }
    });
  },
  ['sqlite', 'postgres'],
  PARTS,
);
