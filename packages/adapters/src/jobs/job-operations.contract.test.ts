import { newId, type JobPriority, type NewJob } from '@fundi/domain';
import { expect, it } from 'vitest';
import { platformStorage } from '../platform/platform-storage.js';
import { describeEachStorage } from '../testing/each-storage.js';

const T0 = Date.parse('2026-06-01T08:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
const aJob = (o: Partial<NewJob> = {}): NewJob => ({
  id: newId('job'),
  kind: 'k',
  lane: 'long',
  payload: {},
  dueAt: at(0),
  maxAttempts: 2,
  idempotencyKey: null,
  createdAt: at(0),
  ...o,
});

describeEachStorage(
  'JobQueue: priority, the operator view and retention',
  (get, kind) => {
    const unique = (k: string) => `${k}-${kind}-${Math.random()}`;
    // One store serves every test of the file: each test that runs interactive jobs has its own hour.
    const claim = (owner: string, kinds: string[], now: number, leaseMs = 10_000) =>
      get().uow.run((tx) =>
        tx.jobs.claimDue({
          owner,
          lane: 'long',
          kinds,
          now: at(now),
          leaseUntil: at(now + leaseMs),
          limit: 5,
          backgroundWaitMs: 30_000,
        }),
      );
    const enqueue = (k: string, priority: JobPriority, o: Partial<NewJob> = {}) =>
      get().repos.jobs.enqueue(aJob({ kind: k, priority, ...o }));

    it('stores the priority and tenant, and holds background jobs while an interactive one runs anywhere', async () => {
      const [imp, mail, replay] = [unique('import'), unique('mail'), unique('replay')];
      const job = await enqueue(imp, 'interactive', { payload: { tenantId: 'ten_1' } });
      expect(await get().repos.jobs.findById(job.id)).toMatchObject({ priority: 'interactive', tenantId: 'ten_1' });
      await enqueue(mail, 'background');
      await enqueue(replay, 'normal');
      expect(await claim('one-process', [imp], 1000, 60_000)).toMatchObject([{ id: job.id, claimedAt: at(1000) }]);
      // Another worker, another process: the normal job goes, the background one waits for the interactive one.
      expect(await claim('other-process', [mail, replay], 2000)).toMatchObject([{ kind: replay }]);
      expect(await claim('other-process', [mail], 30_999)).toEqual([]);
      // 30 s after the interactive job's claim the background job runs beside it.
      expect(await claim('other-process', [mail], 31_000)).toMatchObject([{ kind: mail }]);
    });

    it('lets background jobs run once the interactive job finished or its lease ran out', async () => {
      const [imp, mail] = [unique('import'), unique('mail')];
      const h = 3_600_000;
      const job = await enqueue(imp, 'interactive');
      const bg = await enqueue(mail, 'background');
      await claim('w1', [imp], h + 0);
      expect(await claim('w2', [mail], h + 1000)).toEqual([]);
      await get().uow.run((tx) => tx.jobs.finish(job.id, 'w1', at(h + 2000), null));
      expect(await claim('w2', [mail], h + 2000)).toMatchObject([{ id: bg.id }]);
      await get().uow.run((tx) => tx.jobs.finish(bg.id, 'w2', at(h + 2500), null));
      const killed = await enqueue(imp, 'interactive');
      const bg2 = await enqueue(mail, 'background');
      await claim('crashed', [imp], h + 3000);
      expect(await claim('w2', [mail], h + 4000)).toEqual([]);
      // The crashed worker's lease (10 s) ran out: it runs nothing any more.
      expect(await claim('w2', [mail], h + 13_001)).toMatchObject([{ id: bg2.id }]);
      expect(await get().repos.jobs.findById(killed.id)).toMatchObject({ doneAt: null, leaseOwner: 'crashed' });
    });

    it('lists by state, kind and tenant, newest first', async () => {
      const k = unique('list');
      const queued = await enqueue(k, 'normal', { payload: { tenantId: 'ten_a' }, dueAt: at(999_999) });
      const running = await enqueue(k, 'normal', { payload: { tenantId: 'ten_b' }, dueAt: at(200) });
      const failing = await enqueue(k, 'normal', { payload: { tenantId: 'ten_a' }, dueAt: at(100) });
      const done = await enqueue(k, 'normal', { payload: { tenantId: 'ten_b' }, dueAt: at(0) });
      expect(await claim('w', [k], 0)).toMatchObject([{ id: done.id }]);
      await get().uow.run((tx) => tx.jobs.finish(done.id, 'w', at(50), null));
      expect(await claim('w', [k], 100)).toMatchObject([{ id: failing.id }]);
      await get().uow.run((tx) => tx.jobs.retry(failing.id, 'w', at(900_000), 'boom'));
      expect(await claim('w', [k], 200)).toMatchObject([{ id: running.id }]);
      const list = (o: object) => get().repos.jobs.list({ kind: k, limit: 10, now: at(1000), ...o });
      const ids = async (o: object) => (await list(o)).map((j) => j.id);
      expect(await ids({ state: 'queued' })).toEqual([queued.id]);
      expect(await ids({ state: 'running' })).toEqual([running.id]);
      expect(await ids({ state: 'failed' })).toEqual([failing.id]);
      expect(await ids({ state: 'done' })).toEqual([done.id]);
      expect(await ids({})).toEqual([done.id, failing.id, running.id, queued.id]);
      expect(await ids({ tenantId: 'ten_a' })).toEqual([failing.id, queued.id]);
      expect(await ids({ limit: 2 })).toEqual([done.id, failing.id]);
      // A lease that ran out (a killed worker) is no longer running: the job waits to be claimed again.
      expect(await ids({ state: 'queued', now: at(60_000) })).toEqual([running.id, queued.id]);
    });

    it('retries a failed or given-up job now with its attempts reset, and nothing else', async () => {
      const k = unique('retry');
      const job = await enqueue(k, 'normal');
      await claim('w', [k], 0);
      await get().uow.run((tx) => tx.jobs.finish(job.id, 'w', at(10), 'gave up'));
      const now = at(5000);
      expect(await get().repos.jobs.retryNow(job.id, now)).toMatchObject({
        changed: true,
        job: { attempts: 0, dueAt: now, doneAt: null, lastError: null, leaseOwner: null },
      });
      expect(await get().repos.jobs.retryNow(job.id, now)).toMatchObject({ changed: false, state: 'queued' });
      expect(await claim('w', [k], 5000)).toMatchObject([{ id: job.id, attempts: 1 }]);
      expect(await get().repos.jobs.retryNow(job.id, at(5001))).toMatchObject({ changed: false, state: 'running' });
      expect(await get().repos.jobs.retryNow('job_none', now)).toEqual({ changed: false, job: null, state: null });
    });

    it('cancels a queued or failed job for good, and refuses a running one', async () => {
      const k = unique('cancel');
      const queued = await enqueue(k, 'normal');
      expect(await get().repos.jobs.cancel(queued.id, at(1))).toMatchObject({
        changed: true,
        job: { cancelledAt: at(1), doneAt: at(1) },
      });
      expect(await claim('w', [k], 10)).toEqual([]);
      expect(await get().repos.jobs.retryNow(queued.id, at(11))).toMatchObject({ changed: false, state: 'cancelled' });
      const running = await enqueue(k, 'normal');
      await claim('w', [k], 20);
      expect(await get().repos.jobs.cancel(running.id, at(21))).toMatchObject({ changed: false, state: 'running' });
      await get().uow.run((tx) => tx.jobs.retry(running.id, 'w', at(90_000), 'boom'));
      expect(await get().repos.jobs.cancel(running.id, at(22))).toMatchObject({
        changed: true,
        job: { cancelledAt: at(22), lastError: 'boom' },
      });
      expect(await get().repos.jobs.list({ kind: k, state: 'cancelled', limit: 5, now: at(23) })).toHaveLength(2);
    });

    it('prunes finished jobs older than the cut-off in batches, never an unfinished one', async () => {
      const k = unique('prune');
      const old = Date.parse('2020-01-01T00:00:00.000Z') - T0;
      const finished: string[] = [];
      for (let i = 0; i < 5; i++) {
        const j = await enqueue(k, 'normal', { dueAt: at(old), createdAt: at(old) });
        await claim('p', [k], old + i);
        await get().uow.run((tx) => tx.jobs.finish(j.id, 'p', at(old + 100 + i), i % 2 ? 'gave up' : null));
        finished.push(j.id);
      }
      const unfinished = await enqueue(k, 'normal', { dueAt: at(old), createdAt: at(old) });
      const recent = await enqueue(k, 'normal', { dueAt: at(old), createdAt: at(old) });
      await claim('p', [k], old + 200);
      await get().uow.run((tx) => tx.jobs.finish(recent.id, 'p', at(old + 10_000), null));
      await get().uow.run((tx) => tx.jobs.release('p'));
      const before = at(old + 1000);
      expect(await get().repos.jobs.pruneFinished(before, 2)).toBe(2);
      expect(await get().repos.jobs.findById(finished[0]!)).toBeNull();
      expect(await get().repos.jobs.findById(finished[2]!)).not.toBeNull();
      expect(await get().repos.jobs.pruneFinished(before, 10)).toBe(3);
      expect(await get().repos.jobs.pruneFinished(before, 10)).toBe(0);
      expect(await get().repos.jobs.findById(unfinished.id)).toMatchObject({ doneAt: null });
      expect(await get().repos.jobs.findById(recent.id)).not.toBeNull();
    });
  },
  undefined,
  [platformStorage],
);
