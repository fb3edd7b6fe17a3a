import { describe, expect, it } from 'vitest';
import { newId } from '@fundi/domain';
import { LogbookEntry, type LogbookEntrySnapshot, type LogbookRepos } from '@fundi/domain/logbooks';
import { memoryStorage } from '@fundi/memory';
import { learnerMemory } from '@fundi/memory/learners';
import { logbookMemory } from '@fundi/memory/logbooks';
import { platformMemory } from '@fundi/memory/platform';
import { trainingMemory } from '@fundi/memory/training';
import { FixedClock } from '@fundi/testing';
import { testSigner } from '../testing/export-world.js';
import { SubmitOpenLogbookEntries } from './submit-open-logbook-entries.js';
import { MAX_SUBMITTED_ENTRIES, submissionGroups } from './logbook-submissions.js';

const NOW = new Date(Date.UTC(2026, 5, 1, 8, 0));
const day = (i: number) => new Date(Date.UTC(2026, 0, 12 + i)).toISOString().slice(0, 10);

const entry = (date: string, supervisor: string, moduleCode = 'WM-01'): LogbookEntrySnapshot =>
  LogbookEntry.create(
    {
      date,
      hours: 8,
      activity: `Work of ${date}`,
      workplace: 'Ubuntu Electrical',
      supervisor: { name: 'Sipho Khumalo', email: `${supervisor}@site.example` },
    },
    {
      id: newId('lbe'),
      tenantId: 'ten_a',
      learnerId: 'lrn_a',
      enrolmentId: 'enr_a',
      moduleCode,
      actor: 'key_a',
      now: NOW,
    },
  );

/** The logbook use cases over the in-memory fakes; `failOn` makes the update of that entry fail. */
function world(failOn?: () => string | undefined) {
  const m = memoryStorage([platformMemory, learnerMemory, trainingMemory, logbookMemory]);
  const withFailure = <R extends LogbookRepos>(tx: R): R => ({
    ...tx,
    logbookEntries: new Proxy(tx.logbookEntries, {
      get: (target, key) =>
        key === 'update'
          ? async (e: LogbookEntrySnapshot) => {
              if (e.id === failOn?.()) throw new Error('the disk is full');
              return target.update(e);
            }
          : Reflect.get(target, key),
    }),
  });
  const submitOpen = new SubmitOpenLogbookEntries({
    repos: m.repositories(),
    uow: { run: (work) => m.uow.run((tx) => work(withFailure(tx))) },
    clock: new FixedClock(NOW),
    signer: testSigner,
  });
  const actor = { tenantId: 'ten_a', id: 'lrn_a', role: 'viewer' as const, scopes: [] };
  return { submitOpen, actor, repos: m.repositories() };
}

describe('submitting any number of unsigned entries: groups of at most 50 per supervisor', () => {
  it('groups by supervisor address, each in date order, cut at 50', () => {
    const boss = Array.from({ length: 51 }, (_, i) => entry(day(50 - i), 'boss'));
    const other = [entry('2026-05-05', 'other'), entry('2026-05-04', 'OTHER')];
    const groups = submissionGroups([boss[0]!, ...other, ...boss.slice(1)]);
    expect(groups.map((g) => g.length)).toEqual([MAX_SUBMITTED_ENTRIES, 1, 2]);
    expect(groups[0]!.map((e) => e.date)).toEqual(Array.from({ length: 50 }, (_, i) => day(i)));
    expect(groups[1]!.map((e) => e.date)).toEqual([day(50)]);
    expect(groups[2]!.map((e) => e.date)).toEqual(['2026-05-04', '2026-05-05']);
  });

  it('sends all of them in one transaction, or none when any fails; filters by module and week', async () => {
    let failing: string | undefined;
    const { submitOpen, actor, repos } = world(() => failing);
    const boss = Array.from({ length: 51 }, (_, i) => entry(day(i), 'boss'));
    const other = [entry('2026-05-04', 'other'), entry('2026-05-05', 'other')];
    const elsewhere = entry('2026-05-06', 'other', 'WM-02');
    for (const e of [...boss, ...other, elsewhere]) await repos.logbookEntries.insert(e);
    const statuses = async () => (await repos.logbookEntries.listForLearner('ten_a', 'lrn_a')).map((e) => e.status);

    // The last entry written (the other supervisor's second day, in the third group) fails: nothing is sent.
    failing = other[1]!.id;
    await expect(submitOpen.execute(actor, 'lrn_a', { moduleCode: 'WM-01' })).rejects.toThrow('the disk is full');
    expect(await statuses()).toEqual(Array(54).fill('draft'));
    expect(await repos.outbox.list('ten_a', { limit: 100 })).toEqual([]);

    failing = undefined;
    const sent = await submitOpen.execute(actor, 'lrn_a', { moduleCode: 'WM-01' });
    expect(sent.data).toHaveLength(53);
    expect(sent.submissions.map((s) => s.entryIds.length)).toEqual([50, 1, 2]);
    expect(await statuses()).toEqual([...Array(53).fill('submitted'), 'draft']);
    const events = await repos.outbox.list('ten_a', { limit: 100 });
    expect(events.filter((e) => e.type === 'logbook.submitted')).toHaveLength(53);
    // Nothing unsigned left in the module: not found; the week of 2026-05-04 still has the other module's day.
    await expect(submitOpen.execute(actor, 'lrn_a', { moduleCode: 'WM-01' })).rejects.toMatchObject({
      kind: 'not_found',
    });
    const week = await submitOpen.execute(actor, 'lrn_a', { from: '2026-05-04', to: '2026-05-10' });
    expect(week.data.map((e) => e.id)).toEqual([elsewhere.id]);
  });
});
