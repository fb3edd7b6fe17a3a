import { expect, it } from 'vitest';
import {
  Evidence,
  newId,
  type EvidenceSnapshot,
  type EvidenceVersionSnapshot,
  type UploadTicketSnapshot,
} from '@fundi/domain';
import { describeEachStorage } from '../testing/each-storage.js';
import { CORE_STORAGE } from '../testing/test-databases.js';
import { aProgramme, anEnrolment, seedTenant } from '../testing/training-builders.js';
import { evidenceStorage } from './sql-evidence.js';

const PARTS = [...CORE_STORAGE, evidenceStorage] as const;
const at = (minute: number) => new Date(Date.UTC(2026, 5, 1, 8, minute)).toISOString();

function aVersion(
  e: { id: string; tenantId: string },
  version: number,
  over: Partial<EvidenceVersionSnapshot> = {},
): EvidenceVersionSnapshot {
  return {
    tenantId: e.tenantId,
    evidenceId: e.id,
    version,
    filename: `file-v${version}.pdf`,
    contentType: 'application/pdf',
    size: 1000 * version,
    sha256: 'ab'.repeat(32),
    storageKey: `t/${e.tenantId}/evidence/${e.id}/v${version}`,
    uploadedBy: 'key_a',
    createdAt: at(version),
    status: 'submitted',
    reviewedAt: null,
    reviewedBy: null,
    feedback: null,
    ...over,
  };
}

describeEachStorage(
  'EvidenceRepository contract',
  (get) => {
    async function world() {
      const { repos, uow } = get();
      const seeded = await seedTenant(repos, 2);
      const p = aProgramme(seeded.tenantId);
      await repos.programmes.insert(p);
      const enrolment = anEnrolment(p, seeded.learnerIds[0]!);
      await repos.enrolments.insert(enrolment);
      const make = (over: Partial<Omit<EvidenceSnapshot, 'current'>> = {}): EvidenceSnapshot => {
        const base = {
          id: newId('evd'),
          tenantId: seeded.tenantId,
          learnerId: seeded.learnerIds[0]!,
          enrolmentId: enrolment.id,
          moduleId: 'M1',
          evidenceType: 'portfolio' as const,
          createdAt: at(1),
          updatedAt: at(1),
          deletedAt: null,
          description: null,
          ...over,
        };
        return { ...base, current: aVersion(base, 1) };
      };
      return { repos, uow, make, enrolment, ...seeded };
    }

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

    it('finds live evidence by learner, module and current file name, case-insensitively (non-ASCII too), any status', async () => {
      const { repos, make, tenantId, learnerIds, enrolment } = await world();
      const [l0, l1] = [learnerIds[0]!, learnerIds[1]!];
      const named = (filename: string, over: Partial<Omit<EvidenceSnapshot, 'current'>> = {}) => {
        const e = make(over);
        return { ...e, current: { ...e.current, filename } };
      };
      const awaiting = Evidence.awaiting({
        id: newId('evd'),
        tenantId,
        learnerId: l0,
        enrolmentId: enrolment.id,
        moduleId: 'M1',
        evidenceType: 'logbook',
        filename: 'Logbook Week 1.PDF',
        description: null,
        createdBy: 'key_importer',
        now: new Date(at(2)),
      });
      const submitted = named('Portfolio.pdf');
      const accepted = named('ÉVALUATION.pdf');
      const otherModule = named('portfolio.pdf', { moduleId: 'M2' });
      const otherLearner = named('portfolio.pdf', { learnerId: l1 });
      const deleted = named('deleted.pdf');
      const revised = named('first name.pdf');
      for (const e of [awaiting, submitted, accepted, otherModule, otherLearner, deleted, revised])
        await repos.evidence.insert(e);
      const approved = {
        ...accepted,
        current: { ...accepted.current, status: 'approved' as const, reviewedAt: at(3) },
      };
      expect(await repos.evidence.saveReview(approved)).toBe(true);
      expect(await repos.evidence.markDeleted(tenantId, deleted.id, at(4))).toBe(true);
      // Version 2 under another name: the record is known by its current file name.
      await repos.evidence.addVersion({ ...revised, current: aVersion(revised, 2, { filename: 'Second Name.pdf' }) });

      const key = (filename: string, learnerId = l0, moduleId = 'M1') => ({ learnerId, moduleId, filename });
      const ids = async (keys: ReturnType<typeof key>[], tenant = tenantId) =>
        (await repos.evidence.findByFileNames(tenant, keys)).map((e) => e.id);
      const byId = (xs: { id: string }[]) => xs.map((x) => x.id).sort();
      expect(
        await ids([
          key('logbook week 1.pdf'),
          key('PORTFOLIO.PDF'),
          key('évaluation.pdf'),
          key('deleted.pdf'),
          key('first name.pdf'),
          key('second name.PDF'),
          key('portfolio.pdf', l0, 'M3'),
        ]),
      ).toEqual(byId([awaiting, submitted, accepted, revised]));
      const found = await repos.evidence.findByFileNames(tenantId, [key('portfolio.pdf')]);
      expect(found).toEqual([submitted]);
      expect(await ids([key('portfolio.pdf', l1), key('portfolio.pdf', l0, 'M2')])).toEqual(
        byId([otherModule, otherLearner]),
      );
      expect(await ids([key('portfolio.pdf', l1, 'M1'), key('portfolio')])).toEqual([otherLearner.id]);
      expect(await ids([key('Portfolio.pdf')], 'ten_other')).toEqual([]);
      expect(await ids([])).toEqual([]);
      // Many keys at once: chunked under every engine's parameter limit, each record once.
      const many = Array.from({ length: 450 }, (_, i) => key(`x-${i}.pdf`, i % 2 ? l0 : `lrn_missing_${i}`, `M${i}`));
      expect(await ids([...many, key('portfolio.pdf'), key('PORTFOLIO.pdf'), ...many])).toEqual([submitted.id]);
    });

    it('consumes an upload ticket once', async () => {
      const { repos, tenantId, learnerIds, enrolment } = await world();
      const t: UploadTicketSnapshot = {
        id: newId('upl'),
        tenantId,
        evidenceId: newId('evd'),
        version: 1,
        learnerId: learnerIds[0]!,
        enrolmentId: enrolment.id,
        moduleId: 'M1',
        evidenceType: 'portfolio',
        filename: 'a.pdf',
        size: 10,
        createdBy: 'key_a',
        createdAt: at(1),
        expiresAt: at(61),
        usedAt: null,
      };
      await repos.uploadTickets.insert(t);
      expect(await repos.uploadTickets.findById(tenantId, t.id)).toEqual(t);
      expect(await repos.uploadTickets.findById('ten_other', t.id)).toBeNull();
      expect(await repos.uploadTickets.consume(tenantId, t.id, at(2))).toBe(true);
      expect(await repos.uploadTickets.consume(tenantId, t.id, at(3))).toBe(false);
      expect((await repos.uploadTickets.findById(tenantId, t.id))?.usedAt).toBe(at(2));
    });
  },
  undefined,
  PARTS,
);
