import { expect, it } from 'vitest';
import { newId } from '@fundi/domain';
import { Evidence, type EvidenceSnapshot } from '@fundi/domain/evidence';
import { describeEachStorage } from '../testing/each-storage.js';
import { aVersion, at, evidenceWorld, PARTS } from './evidence-fixtures.js';

describeEachStorage(
  'EvidenceRepository contract: lookup by file name',
  (get) => {
    const world = () => evidenceWorld(get());

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
  },
  undefined,
  PARTS,
);
