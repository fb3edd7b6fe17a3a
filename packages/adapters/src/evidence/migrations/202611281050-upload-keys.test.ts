import { describe, expect, it } from 'vitest';
import { knexFor, migrate } from '../../db/open-database.js';
import { inRunOrder } from '../../migrations/run-order.js';
import { filesDefiningMigrations, migrationsExportedBy } from '../../testing/migration-files.js';
import { freshDatabasesOfSuite, postgresAvailable } from '../../testing/test-databases.js';
import { evidenceUploadKeys } from './202611281050-upload-keys.js';

const all = inRunOrder((await migrationsExportedBy(filesDefiningMigrations())).flatMap((f) => f.migrations));
const before = all.slice(
  0,
  all.findIndex((m) => m.name === evidenceUploadKeys.name),
);
const pgUp = await postgresAvailable();
const KEY = {
  tenant_id: 'ten_a',
  upload_key: 'k'.repeat(32),
  learner_id: 'lrn_a',
  evidence_id: 'evd_a',
  created_at: '2026-06-01T08:00:00.000Z',
  expires_at: '2026-06-02T08:00:00.000Z',
};

for (const kind of ['sqlite', 'postgres'] as const) {
  (kind === 'postgres' && !pgUp ? describe.skip : describe)(`migration ${evidenceUploadKeys.name} [${kind}]`, () => {
    const aDatabase = freshDatabasesOfSuite(kind);

    it("takes over the portal's upload keys: a key done before the upgrade is still done after it, the old table kept", async () => {
      const target = await aDatabase();
      expect(before.length).toBeGreaterThan(30);
      await migrate(target, before);
      const knex = knexFor(target);
      try {
        await knex('portal_uploads').insert(KEY);
        expect(await migrate(target, all)).toContain(evidenceUploadKeys.name);
        expect(await knex('evidence_upload_keys').select()).toEqual([KEY]);
        // Left in place for processes of the release before, during a rolling deploy.
        expect(await knex('portal_uploads').select()).toEqual([KEY]);
        await knex.transaction((tx) => evidenceUploadKeys.down(tx));
        expect(await knex('portal_uploads').select()).toEqual([KEY]);
        expect(await knex.schema.hasTable('evidence_upload_keys')).toBe(false);
      } finally {
        await knex.destroy();
      }
    });
  });
}
