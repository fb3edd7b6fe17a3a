import { expect, it } from 'vitest';
import { describeEachStorage } from '../testing/each-storage.js';
import { PARTS } from './evidence-fixtures.js';

describeEachStorage(
  'StorageHistory contract',
  (get) => {
    it('keeps one storage figure per tenant and day, the last one recorded, and lists them from a day', async () => {
      const h = get().repos.storageHistory;
      const tenant = `tnt_hist_${Date.now()}`;
      await h.record(tenant, { day: '2026-11-20', bytes: 100, files: 1 });
      await h.record(tenant, { day: '2026-11-22', bytes: 300, files: 3 });
      await h.record(tenant, { day: '2026-11-22', bytes: 350, files: 4 });
      await h.record(`${tenant}_other`, { day: '2026-11-22', bytes: 9, files: 9 });
      expect(await h.list(tenant, '2026-11-21')).toEqual([{ day: '2026-11-22', bytes: 350, files: 4 }]);
      expect((await h.list(tenant, '2026-01-01')).map((x) => x.day)).toEqual(['2026-11-20', '2026-11-22']);
    });
  },
  undefined,
  PARTS,
);
