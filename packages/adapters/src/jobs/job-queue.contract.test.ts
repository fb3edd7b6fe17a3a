import { newId, type JobLane, type NewJob } from '@fundi/domain';
import { expect, it } from 'vitest';
import { platformStorage } from '../platform/platform-storage.js';
import { describeEachStorage } from '../testing/each-storage.js';

const T0 = Date.parse('2026-06-01T08:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
const aJob = (o: Partial<NewJob> = {}): NewJob => ({
  id: newId('job'),
  kind: 'k',
  lane: 'short',
  payload: { n: 1 },
  dueAt: at(0),
  maxAttempts: 3,
  idempotencyKey: null,
  createdAt: at(0),
  ...o,
});

describeEachStorage(
  'JobQueue contract',
  (get, kind) => {
    const kinds = (k: string) => [`${k}-${kind}-${Math.random()}`];
    const claim = (owner: string, lane: JobLane, ks: string[], now: number, leaseMs = 10_000, limit = 5) =>
      get().uow.run((tx) =>
        tx.jobs.claimDue({
          owner,
          lane,
          kinds: ks,
          now: at(now),
          leaseUntil: at(now + leaseMs),
          limit,
          backgroundWaitMs: 0,
        }),
      );

    it('claims due jobs of its lane and kinds, oldest first, leased and counted', async () => {
      const [k] = kinds('claim');
      const { repos } = get();
      const later = await repos.jobs.enqueue(aJob({ kind: k, dueAt: at(2000) }));
      const first = await repos.jobs.enqueue(aJob({ kind: k, dueAt: at(1000) }));
      await repos.jobs.enqueue(aJob({ kind: k, lane: 'long' }));
      await repos.jobs.enqueue(aJob({ kind: k, dueAt: at(99_000) }));
      const got = await claim('w1', 'short', [k!], 5000);
      expect(got.map((j) => j.id)).toEqual([first.id, later.id]);
      expect(got[0]).toMatchObject({
        leaseOwner: 'w1',
        leaseUntil: at(15_000),
        attempts: 1,
        lane: 'short',
        payload: { n: 1 },
      });
      expect(await claim('w2', 'short', [k!], 6000)).toEqual([]);
    });

    it('enqueues many jobs in one call, leaving out those whose key exists', async () => {
      const [k] = kinds('many');
      const { repos } = get();
      const key = `many-${Math.random()}`;
      const first = await repos.jobs.enqueue(aJob({ kind: k, idempotencyKey: key }));
      const a = aJob({ kind: k, payload: { tenantId: 'ten_1', ids: ['a'] }, idempotencyKey: `${key}-a` });
      const b = aJob({ kind: k, dueAt: at(500), idempotencyKey: `${key}-b`, priority: 'background' });
      await repos.jobs.enqueueMany([a, aJob({ kind: k, idempotencyKey: key }), b]);
      await repos.jobs.enqueueMany([]);
      const got = await claim('w1', 'short', [k!], 5000, 10_000, 10);
      expect(got.map((j) => j.id)).toEqual([first.id, a.id, b.id]);
      expect(got[1]).toMatchObject({ tenantId: 'ten_1', payload: { tenantId: 'ten_1', ids: ['a'] }, maxAttempts: 3 });
      expect(got[2]!.priority).toBe('background');
    });

    it('gives a job to another claimer once its lease expired, unless a heartbeat extended it', async () => {
      const [k] = kinds('lease');
      const job = await get().repos.jobs.enqueue(aJob({ kind: k }));
      await claim('w1', 'short', [k!], 0);
      expect(await get().repos.jobs.heartbeat(job.id, 'w1', at(30_000))).toBe(true);
      expect(await claim('w2', 'short', [k!], 20_000)).toEqual([]);
      const taken = await claim('w2', 'short', [k!], 31_000);
      expect(taken).toMatchObject([{ id: job.id, leaseOwner: 'w2', attempts: 2 }]);
      expect(await get().repos.jobs.heartbeat(job.id, 'w1', at(60_000))).toBe(false);
      expect(await get().repos.jobs.reportProgress(job.id, 'w1', { processed: 5, total: 10 })).toBe(false);
    });

    it('keeps progress readable, retries later, and finishes with or without an error', async () => {
      const [k] = kinds('progress');
      const job = await get().repos.jobs.enqueue(aJob({ kind: k }));
      await claim('w1', 'short', [k!], 0);
      expect(await get().repos.jobs.reportProgress(job.id, 'w1', { processed: 40, total: 100 })).toBe(true);
      expect(await get().repos.jobs.findById(job.id)).toMatchObject({ progress: { processed: 40, total: 100 } });
      await get().uow.run((tx) => tx.jobs.retry(job.id, 'w1', at(60_000), 'boom'));
      expect(await claim('w2', 'short', [k!], 59_000)).toEqual([]);
      const again = await claim('w2', 'short', [k!], 60_000);
      expect(again).toMatchObject([{ attempts: 2, lastError: 'boom', progress: { processed: 40, total: 100 } }]);
      await get().uow.run((tx) => tx.jobs.finish(job.id, 'w2', at(61_000), 'gave up'));
      expect(await get().repos.jobs.findById(job.id)).toMatchObject({
        doneAt: at(61_000),
        lastError: 'gave up',
        leaseOwner: null,
      });
      expect(await claim('w3', 'short', [k!], 999_000)).toEqual([]);
    });

    it('adds one job per idempotency key and returns the first for a second enqueue', async () => {
      const [k] = kinds('key');
      const key = `key-${kind}-${Math.random()}`;
      const a = await get().repos.jobs.enqueue(aJob({ kind: k, idempotencyKey: key, payload: { first: true } }));
      const b = await get().repos.jobs.enqueue(aJob({ kind: k, idempotencyKey: key, payload: { first: false } }));
      expect(b).toMatchObject({ id: a.id, payload: { first: true } });
      expect(await claim('w1', 'short', [k!], 0)).toHaveLength(1);
    });

    it('gives leases back on release, and only the owner can finish or retry', async () => {
      const [k] = kinds('release');
      const job = await get().repos.jobs.enqueue(aJob({ kind: k }));
      await claim('releasing', 'short', [k!], 0);
      await get().uow.run((tx) => tx.jobs.finish(job.id, 'intruder', at(1), null));
      await get().uow.run((tx) => tx.jobs.retry(job.id, 'intruder', at(1), 'no'));
      expect(await get().repos.jobs.findById(job.id)).toMatchObject({
        doneAt: null,
        lastError: null,
        leaseOwner: 'releasing',
      });
      expect(await get().uow.run((tx) => tx.jobs.release('releasing'))).toBe(1);
      expect(await claim('w2', 'short', [k!], 1)).toMatchObject([{ id: job.id, attempts: 2 }]);
    });
  },
  undefined,
  [platformStorage],
);

describeEachStorage(
  'JobQueue on Postgres under concurrent claimers',
  (get) => {
    it('never gives one job to two claimers at once (transactions on separate connections, SKIP LOCKED)', async () => {
      const k = `race-${Math.random()}`;
      for (let i = 0; i < 60; i++) await get().repos.jobs.enqueue(aJob({ kind: k }));
      const claimer = (owner: string) =>
        get().uow.run((tx) =>
          tx.jobs.claimDue({
            owner,
            lane: 'short',
            kinds: [k],
            now: at(0),
            leaseUntil: at(60_000),
            limit: 7,
            backgroundWaitMs: 0,
          }),
        );
      const rounds = await Promise.all(Array.from({ length: 12 }, (_, i) => claimer(`w${i}`)));
      const ids = rounds.flat().map((j) => j.id);
      expect(ids.length).toBe(60);
      expect(new Set(ids).size).toBe(60);
    });
  },
  ['postgres'],
  [platformStorage],
);
