import { expect, it } from 'vitest';
import { describeEachStorage } from '../../testing/each-storage.js';
import { learnerIndexTrimMigration } from './202611270411-index-trim.js';

/** Learners' indexes after migration `index-trim`: no (tenant_id, id) beside the live one; alternative IDs partial. */
describeEachStorage(
  `migration ${learnerIndexTrimMigration.name}`,
  (get) => {
    const indexes = async () => {
      const db = get().db!;
      return db.all<{ name: string; sql: string | null }>(db.dialect.indexesQuery, ['learners']);
    };

    it('drops the (tenant_id, id) index and keeps the live one', async () => {
      const names = (await indexes()).map((i) => i.name);
      expect(names).not.toContain('learners_tenant_id_id_index');
      expect(names).toContain('learners_live_tenant_id');
    });

    it('keeps alternative IDs unique in an index of the learners that have one', async () => {
      const alternate = (await indexes()).find((i) => i.name === 'learners_tenant_alternate_id_unique');
      expect(alternate?.sql).toMatch(/UNIQUE INDEX/i);
      expect(alternate?.sql).toMatch(/WHERE \(?alternate_id IS NOT NULL\)?/i);
    });
  },
  ['sqlite', 'postgres'],
);
