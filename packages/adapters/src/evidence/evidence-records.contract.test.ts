import { expect, it } from 'vitest';
import { describeEachStorage } from '../testing/each-storage.js';
import { aVersion, at, evidenceWorld, PARTS } from './evidence-fixtures.js';

describeEachStorage(
  'EvidenceRepository contract: records, reviews and versions',
  (get) => {
    const world = () => evidenceWorld(get());

    it('inserts, finds with the current version, and hides it from other tenants', async () => {
      const { repos, make, tenantId } = await world();
      const e = make();
      await repos.evidence.insert(e);
      expect(await repos.evidence.findById(tenantId, e.id)).toEqual(e);
      expect(await repos.evidence.findById('ten_other', e.id)).toBeNull();
      expect(await repos.evidence.findByIds(tenantId, [e.id, 'evd_missing', e.id])).toEqual([e]);
    });

    it('reviews a version once, adds versions, and lists every version with its own review', async () => {
      const { repos, make, tenantId } = await world();
      const e = make();
      await repos.evidence.insert(e);
      const reviewed = {
        ...e,
        updatedAt: at(5),
        current: {
          ...e.current,
          status: 'revision_requested' as const,
          reviewedAt: at(5),
          reviewedBy: 'key_r',
          feedback: 'Sign it',
        },
      };
      expect(await repos.evidence.saveReview(reviewed)).toBe(true);
      expect(
        await repos.evidence.saveReview({ ...reviewed, current: { ...reviewed.current, status: 'approved' } }),
      ).toBe(false);
      const second = { ...reviewed, updatedAt: at(6), current: aVersion(e, 2, { createdAt: at(6) }) };
      await repos.evidence.addVersion(second);
      await expect(repos.evidence.addVersion(second)).rejects.toMatchObject({
        kind: 'conflict',
        code: 'duplicate_version',
      });
      expect(await repos.evidence.findById(tenantId, e.id)).toEqual(second);
      expect((await repos.evidence.versions(tenantId, e.id)).map((v) => [v.version, v.status, v.feedback])).toEqual([
        [1, 'revision_requested', 'Sign it'],
        [2, 'submitted', null],
      ]);
      expect(await repos.evidence.usage(tenantId)).toEqual({ bytes: 3000, files: 2 });
    });

    it('filters lists and pages them; deleted evidence is hidden until restored', async () => {
      const { repos, make, tenantId, learnerIds } = await world();
      const a = make({ createdAt: at(1) });
      const b = make({ evidenceType: 'logbook', moduleId: 'M2', createdAt: at(2) });
      const c = make({ createdAt: at(3) });
      for (const e of [a, b, c]) await repos.evidence.insert(e);
      const ids = async (f: object) =>
        (await repos.evidence.list(tenantId, f, { kind: 'offset', offset: 0, limit: 10 })).items.map((e) => e.id);
      expect(await ids({})).toEqual([a.id, b.id, c.id]);
      expect(await ids({ evidenceType: 'logbook' })).toEqual([b.id]);
      expect(await ids({ moduleId: 'M1', learnerId: learnerIds[0] })).toEqual([a.id, c.id]);
      expect(await ids({ from: at(2), to: at(2) })).toEqual([b.id]);
      expect(await ids({ status: 'approved' })).toEqual([]);
      expect(await repos.evidence.list(tenantId, {}, { kind: 'cursor', after: a.id, limit: 1 })).toMatchObject({
        items: [b],
        total: 3,
        hasMore: true,
      });
      expect(await repos.evidence.markDeleted(tenantId, b.id, at(10))).toBe(true);
      expect(await repos.evidence.markDeleted(tenantId, b.id, at(11))).toBe(false);
      expect(await ids({})).toEqual([a.id, c.id]);
      expect(await repos.evidence.findById(tenantId, b.id)).toBeNull();
      expect((await repos.evidence.findById(tenantId, b.id, { withDeleted: true }))?.deletedAt).toBe(at(10));
      expect((await repos.evidence.deletedBefore(at(10), 10)).map((x) => [x.id, x.storageKeys])).toEqual([
        [b.id, [b.current.storageKey]],
      ]);
      expect(await repos.evidence.deletedBefore(at(9), 10)).toEqual([]);
      // Every stored version's key, deleted evidence too, paged in key order (master-key rotation).
      // (other tests' tenants share the store): paged two at a time, the same keys as in one page, ours among them.
      const all = await repos.evidence.storageKeys(null, 100_000);
      for (const x of [a, b, c]) expect(all).toContain(x.current.storageKey);
      const paged: string[] = [];
      for (let after: string | null = null; ; ) {
        const page = await repos.evidence.storageKeys(after, 2);
        paged.push(...page);
        if (page.length < 2) break;
        after = page[1]!;
      }
      expect(paged).toEqual(all);
      expect(await repos.evidence.restore(tenantId, b.id, at(12))).toBe(true);
      expect(await ids({})).toEqual([a.id, b.id, c.id]);
      expect((await repos.evidence.ofLearner(tenantId, learnerIds[0]!)).map((x) => x.id)).toEqual([a.id, b.id, c.id]);
      await repos.evidence.remove(tenantId, a.id);
      expect(await ids({})).toEqual([b.id, c.id]);
      expect(await repos.evidence.versions(tenantId, a.id)).toEqual([]);
    });
  },
  undefined,
  PARTS,
);
