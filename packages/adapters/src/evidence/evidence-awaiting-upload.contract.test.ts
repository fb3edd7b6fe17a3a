import { expect, it } from 'vitest';
import { newId } from '@fundi/domain';
import { Evidence } from '@fundi/domain/evidence';
import { describeEachStorage } from '../testing/each-storage.js';
import { aVersion, at, evidenceWorld, PARTS } from './evidence-fixtures.js';

describeEachStorage(
  'EvidenceRepository contract: records awaiting their file',
  (get) => {
    const world = () => evidenceWorld(get());

    it('keeps a record awaiting its file without a version: listed only when asked, counted nowhere, completed by version 1', async () => {
      const { repos, make, tenantId, learnerIds, enrolment } = await world();
      const usage = await repos.evidence.usage(tenantId);
      const stored = make();
      await repos.evidence.insert(stored);
      const awaiting = Evidence.awaiting({
        id: newId('evd'),
        tenantId,
        learnerId: learnerIds[0]!,
        enrolmentId: enrolment.id,
        moduleId: 'M1',
        evidenceType: 'logbook',
        filename: 'logbook week 1.pdf',
        description: 'Week 1 logbook',
        createdBy: 'key_importer',
        now: new Date(at(2)),
      });
      await repos.evidence.insert(awaiting);
      const found = await repos.evidence.findById(tenantId, awaiting.id);
      expect(found).toEqual(awaiting);
      expect(found?.current).toMatchObject({ version: 0, size: 0, status: 'awaiting_upload', storageKey: '' });
      expect(await repos.evidence.findByIds(tenantId, [awaiting.id])).toEqual([awaiting]);
      expect(await repos.evidence.versions(tenantId, awaiting.id)).toEqual([]);
      expect(await repos.evidence.usage(tenantId)).toEqual({
        bytes: usage.bytes + stored.current.size,
        files: usage.files + 1,
      });
      expect(await repos.evidence.storageKeys(null, 100)).not.toContain('');
      const all = { kind: 'offset' as const, offset: 0, limit: 100 };
      const ids = async (f: Parameters<typeof repos.evidence.list>[1]) =>
        (await repos.evidence.list(tenantId, f, all)).items.map((e) => e.id);
      expect(await ids({})).toEqual([stored.id]);
      expect(await ids({ status: 'submitted' })).toEqual([stored.id]);
      expect(await ids({ status: 'awaiting_upload' })).toEqual([awaiting.id]);
      expect((await repos.evidence.list(tenantId, { status: 'awaiting_upload' }, all)).items).toEqual([awaiting]);
      expect(await ids({ status: 'awaiting_upload', evidenceType: 'portfolio' })).toEqual([]);
      expect(
        (await repos.evidence.list(tenantId, { status: 'awaiting_upload' }, { kind: 'cursor', after: null, limit: 1 }))
          .items,
      ).toHaveLength(1);

      const v1 = { ...awaiting, updatedAt: at(9), current: aVersion(awaiting, 1, { filename: 'logbook week 1.pdf' }) };
      await repos.evidence.addVersion(v1);
      await expect(repos.evidence.addVersion(v1)).rejects.toMatchObject({
        kind: 'conflict',
        code: 'duplicate_version',
      });
      expect(await repos.evidence.findById(tenantId, awaiting.id)).toEqual(v1);
      expect(await ids({ status: 'awaiting_upload' })).toEqual([]);
      expect(await ids({ status: 'submitted' })).toEqual([stored.id, awaiting.id]);
      expect((await repos.evidence.usage(tenantId)).files).toBe(usage.files + 2);
    });

    it('purges and erases a record awaiting its file with no bytes to remove', async () => {
      const { repos, tenantId, learnerIds, enrolment } = await world();
      const awaiting = Evidence.awaiting({
        id: newId('evd'),
        tenantId,
        learnerId: learnerIds[0]!,
        enrolmentId: enrolment.id,
        moduleId: 'M1',
        evidenceType: 'other',
        filename: 'x.pdf',
        description: null,
        createdBy: 'key_importer',
        now: new Date(at(2)),
      });
      await repos.evidence.insert(awaiting);
      expect(await repos.evidence.ofLearner(tenantId, learnerIds[0]!)).toContainEqual({
        tenantId,
        id: awaiting.id,
        learnerId: learnerIds[0]!,
        storageKeys: [],
      });
      expect(await repos.evidence.markDeleted(tenantId, awaiting.id, at(3))).toBe(true);
      expect(await repos.evidence.findById(tenantId, awaiting.id, { withDeleted: true })).toMatchObject({
        deletedAt: at(3),
        current: { status: 'awaiting_upload' },
      });
      await repos.evidence.remove(tenantId, awaiting.id);
      expect(await repos.evidence.findById(tenantId, awaiting.id, { withDeleted: true })).toBeNull();
    });
  },
  undefined,
  PARTS,
);
