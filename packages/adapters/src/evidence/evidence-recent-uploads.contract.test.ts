import { expect, it } from 'vitest';
import { describeEachStorage } from '../testing/each-storage.js';
import { aProgramme, anEnrolment } from '../testing/training-builders.js';
import { aVersion, at, evidenceWorld, PARTS } from './evidence-fixtures.js';

describeEachStorage(
  'EvidenceRepository contract: enrolments with recent uploads (the overview’s learners at risk)',
  (get) => {
    it('names each enrolment of live evidence with a version uploaded since a time, once', async () => {
      const { repos, make, tenantId, learnerIds, enrolment } = await evidenceWorld(get());
      const p = aProgramme(tenantId);
      await repos.programmes.insert(p);
      const other = anEnrolment(p, learnerIds[1]!);
      const gone = anEnrolment(p, learnerIds[0]!);
      for (const e of [other, gone]) await repos.enrolments.insert(e);
      const a = make();
      const b = make({ enrolmentId: other.id, learnerId: learnerIds[1]! });
      const c = make({ enrolmentId: gone.id });
      const d = make();
      for (const e of [a, b, c, d]) await repos.evidence.insert(e);
      await repos.evidence.addVersion({ ...a, updatedAt: at(6), current: aVersion(a, 6) });
      await repos.evidence.addVersion({ ...c, updatedAt: at(9), current: aVersion(c, 9) });
      await repos.evidence.markDeleted(tenantId, c.id, at(10));
      const since = async (minute: number) =>
        (await repos.evidence.enrolmentsWithUploadsSince(tenantId, at(minute))).sort();
      expect(await since(5)).toEqual([enrolment.id]);
      expect(await since(0)).toEqual([enrolment.id, other.id].sort());
      expect(await since(7)).toEqual([]);
      expect(await repos.evidence.enrolmentsWithUploadsSince('ten_other', at(0))).toEqual([]);
    });
  },
  undefined,
  PARTS,
);
