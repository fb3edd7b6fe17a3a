import { expect, it } from 'vitest';
import { newId } from '@fundi/domain';
import { LogbookEntry, type LogbookEntrySnapshot } from '@fundi/domain/logbooks';
import { describeEachStorage } from '../testing/each-storage.js';
import { CORE_STORAGE } from '../testing/test-databases.js';
import { logbookStorage } from './logbook-storage.js';

const PARTS = [...CORE_STORAGE, logbookStorage] as const;
const NOW = new Date(Date.UTC(2026, 5, 1, 8, 0));

describeEachStorage(
  'Logbook entry repository contract',
  (get) => {
    const tenantA = `ten_a${Math.random().toString(36).slice(2, 8)}`;
    const tenantB = `ten_b${Math.random().toString(36).slice(2, 8)}`;
    const entry = (tenantId: string, learnerId: string, date: string): LogbookEntrySnapshot =>
      LogbookEntry.create(
        {
          date,
          hours: 7.5,
          activity: 'Installed conduit',
          workplace: 'Ubuntu Electrical',
          supervisor: { name: 'Sipho Khumalo', email: 'sipho@site.example', mobile: '082 555 0101' },
        },
        {
          id: newId('lbe'),
          tenantId,
          learnerId,
          enrolmentId: 'enr_x',
          moduleCode: 'WM-01',
          actor: 'key_x',
          now: NOW,
        },
      );

    it('stores, reads within the tenant only, lists with filters and pages, updates and deletes', async () => {
      const { repos } = get();
      const a1 = entry(tenantA, 'lrn_a', '2026-03-02');
      const a2 = entry(tenantA, 'lrn_a', '2026-03-03');
      const b1 = entry(tenantA, 'lrn_b', '2026-03-02');
      const other = entry(tenantB, 'lrn_a', '2026-03-02');
      for (const e of [a1, a2, b1, other]) await repos.logbookEntries.insert(e);
      expect(await repos.logbookEntries.findById(tenantA, a1.id)).toEqual(a1);
      expect(await repos.logbookEntries.findById(tenantB, a1.id)).toBeNull();
      expect((await repos.logbookEntries.findByIds(tenantA, [a2.id, other.id, a1.id])).map((e) => e.id)).toEqual([
        a1.id,
        a2.id,
      ]);
      const page = await repos.logbookEntries.list(
        tenantA,
        { learnerId: 'lrn_a' },
        { kind: 'cursor', after: null, limit: 1 },
      );
      expect([page.items.map((e) => e.id), page.total, page.hasMore]).toEqual([[a1.id], 2, true]);
      // Entries submitted together are read back by their sign-off request, and only theirs.
      const [s1, s2] = [LogbookEntry.submit(a1, NOW, 'lbs_one'), LogbookEntry.submit(a2, NOW, 'lbs_one')];
      await repos.logbookEntries.update(s1);
      await repos.logbookEntries.update(s2);
      await repos.logbookEntries.update(LogbookEntry.submit(other, NOW, 'lbs_one'));
      expect(await repos.logbookEntries.listBySubmission(tenantA, 'lbs_one')).toEqual([s1, s2]);
      expect(await repos.logbookEntries.listBySubmission(tenantA, 'lbs_two')).toEqual([]);
      const signed = LogbookEntry.answer(s1, {
        outcome: 'confirmed',
        by: 'Sipho Khumalo',
        at: NOW.toISOString(),
        ip: '127.0.0.1',
        hash: 'f'.repeat(64),
        comment: null,
      });
      await repos.logbookEntries.update(signed);
      expect(await repos.logbookEntries.findById(tenantA, a1.id)).toEqual(signed);
      expect(
        (await repos.logbookEntries.list(tenantA, { status: 'signed' }, { kind: 'offset', offset: 0, limit: 10 }))
          .total,
      ).toBe(1);
      await repos.logbookEntries.delete(tenantA, a2.id);
      expect((await repos.logbookEntries.listForLearner(tenantA, 'lrn_a')).map((e) => e.id)).toEqual([a1.id]);
      await expect(repos.logbookEntries.update({ ...a2, hours: 3 })).rejects.toMatchObject({ kind: 'not_found' });
    });

    it("erasure empties the learner's personal text and keeps dates, hours, statuses and hashes", async () => {
      const { repos } = get();
      const e = LogbookEntry.answer(LogbookEntry.submit(entry(tenantA, 'lrn_gone', '2026-03-04'), NOW, 'lbs_gone'), {
        outcome: 'queried',
        by: 'Sipho Khumalo',
        at: NOW.toISOString(),
        ip: '10.0.0.9',
        hash: 'a'.repeat(64),
        comment: 'Not on site that day',
      });
      const kept = entry(tenantA, 'lrn_kept', '2026-03-04');
      await repos.logbookEntries.insert(e);
      await repos.logbookEntries.insert(kept);
      expect(await repos.logbookEntries.eraseLearner(tenantA, 'lrn_gone')).toBe(1);
      expect(await repos.logbookEntries.findById(tenantA, e.id)).toEqual({
        ...e,
        activity: '',
        workplace: '',
        supervisor: { name: '', email: null, mobile: null },
        signOff: { ...e.signOff!, by: '', ip: '', comment: null },
      });
      expect(await repos.logbookEntries.findById(tenantA, kept.id)).toEqual(kept);
    });
  },
  undefined,
  PARTS,
);
