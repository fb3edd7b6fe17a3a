import { expect, it } from 'vitest';
import { describeEachStorage } from '../testing/each-storage.js';
import { PARTS } from './evidence-fixtures.js';

const AT = '2026-06-01T08:00:00.000Z';
const LATER = '2026-06-01T08:20:00.000Z';

describeEachStorage(
  'UploadKeyRepository contract',
  (get) => {
    const tenant = `ten_k${Math.random().toString(36).slice(2, 8)}`;

    it('claims an upload key once per tenant, records its evidence, gives it back, and sweeps the expired', async () => {
      const { repos } = get();
      const u = (key: string, tenantId = tenant) => ({
        tenantId,
        key: `${key}-${tenant}`,
        learnerId: 'lrn_a',
        evidenceId: null,
        createdAt: AT,
        expiresAt: LATER,
      });
      expect(await repos.uploadKeys.claim(u('k1'))).toBe(true);
      expect(await repos.uploadKeys.claim(u('k1'))).toBe(false);
      expect(await repos.uploadKeys.claim(u('k1', `${tenant}x`))).toBe(true);
      await repos.uploadKeys.complete(tenant, u('k1').key, 'evd_1');
      expect(await repos.uploadKeys.find(tenant, u('k1').key)).toEqual({ ...u('k1'), evidenceId: 'evd_1' });
      expect(await repos.uploadKeys.find(`${tenant}x`, u('k1').key)).toEqual(u('k1', `${tenant}x`));
      expect(await repos.uploadKeys.claim(u('k2'))).toBe(true);
      await repos.uploadKeys.release(tenant, u('k2').key);
      expect(await repos.uploadKeys.find(tenant, u('k2').key)).toBeNull();
      expect(await repos.uploadKeys.claim(u('k2'))).toBe(true);
      expect(await repos.uploadKeys.deleteExpired('2026-06-01T09:00:00.000Z', 10)).toBeGreaterThanOrEqual(3);
      expect(await repos.uploadKeys.find(tenant, u('k1').key)).toBeNull();
    });
  },
  undefined,
  PARTS,
);
