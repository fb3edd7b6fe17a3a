import { expect, it } from 'vitest';
import { aTenant, anExport } from '@fundi/domain/testing';
import { knexFor } from '../../db/open-database.js';
import { migrationSource } from '../../migrations/migration.js';
import { migrationsOf } from '../../storage/capability-storage.js';
import { describeEachStorage } from '../../testing/each-storage.js';
import { CORE_STORAGE } from '../../testing/test-databases.js';
import { exportStorage } from '../sql-exports.js';
import { exportPurgeReason } from './202611271017-purge-reason.js';

const PARTS = [...CORE_STORAGE, exportStorage] as const;
const source = migrationSource(migrationsOf(PARTS));

/** Files purged before this migration were all purged for their age. */
describeEachStorage(
  `migration ${exportPurgeReason.name}`,
  (get) => {
    it('gives the exports purged before it the reason expired, and no reason to the others', async () => {
      const { repos } = get();
      const tenant = aTenant();
      await repos.tenants.insert(tenant);
      const purged = anExport({ tenantId: tenant.id, status: 'ready', purgedAt: '2026-06-08T08:00:00.000Z' });
      const kept = anExport({ tenantId: tenant.id, status: 'ready' });
      const knex = knexFor(get().target!);
      try {
        await knex.migrate.down({ migrationSource: source, name: exportPurgeReason.name });
        for (const e of [purged, kept])
          await knex('exports').insert({
            id: e.id,
            tenant_id: e.tenantId,
            type: e.type,
            format: e.format,
            status: e.status,
            filters: '{}',
            created_by: e.createdBy,
            created_at: e.createdAt,
            purged_at: e.purgedAt,
          });
        await knex.migrate.latest({ migrationSource: source });
      } finally {
        await knex.destroy();
      }
      expect(await repos.exports.findById(tenant.id, purged.id)).toMatchObject({ purgeReason: 'expired' });
      expect(await repos.exports.findById(tenant.id, kept.id)).toMatchObject({ purgeReason: null, purgedAt: null });
    });
  },
  ['sqlite', 'postgres'],
  PARTS,
);
