import { expect, it } from 'vitest';
import { describeEachStorage } from '../testing/each-storage.js';
import { at, evidenceWorld, PARTS } from './evidence-fixtures.js';

describeEachStorage(
  'EvidenceRepository contract: retention and per-tenant settings',
  (get) => {
    const world = () => evidenceWorld(get());

    it("finds evidence past retention by its enrolment's completion, and keeps per-tenant settings", async () => {
      const { repos, make, tenantId, enrolment } = await world();
      const e = make();
      await repos.evidence.insert(e);
      expect(await repos.evidence.pastRetention(tenantId, '2030-01-01', 10)).toEqual([]);
      await repos.enrolments.updateStatus(
        { ...enrolment, status: 'completed', achievementDate: '2026-05-01', updatedAt: at(30) },
        'enrolled',
      );
      expect(await repos.evidence.pastRetention(tenantId, '2026-04-30', 10)).toEqual([]);
      expect(
        (await repos.evidence.pastRetention(tenantId, '2026-05-01', 10)).map((c) => [c.id, c.storageKeys]),
      ).toEqual([[e.id, [e.current.storageKey]]]);
      expect(await repos.evidence.pastRetention('ten_other', '2030-01-01', 10)).toEqual([]);
      expect(await repos.evidenceSettings.retentionYears(tenantId)).toBeNull();
      await repos.evidenceSettings.setRetentionYears(tenantId, 10);
      await repos.evidenceSettings.setRetentionYears(tenantId, 12);
      expect(await repos.evidenceSettings.retentionYears(tenantId)).toBe(12);
    });
  },
  undefined,
  PARTS,
);
