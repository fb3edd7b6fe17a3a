import { expect, it } from 'vitest';
import { newId } from '@fundi/domain';
import { InMemoryWorkerLease, MemoryStore } from '@fundi/memory';
import { SqlWorkerLease } from './sql-job-queue.js';
import { at, T0 } from '../webhooks/webhook-fixtures.js';
import { describeEachStorage } from '../testing/each-storage.js';

describeEachStorage('webhook repositories: jobs and the worker lease', (get, kind) => {
  it('runs jobs: claim with a lease, retry later, finish', async () => {
    const { uow, repos } = get();
    const id = newId('job');
    await uow.run((tx) =>
      tx.jobs.enqueue({
        id,
        kind: `k-${kind}`,
        lane: 'short',
        payload: { a: 1 },
        dueAt: at(0),
        maxAttempts: 10,
        idempotencyKey: null,
        createdAt: at(0),
      }),
    );
    const claimJobs = (owner: string, now: string) =>
      uow.run((tx) =>
        tx.jobs.claimDue({
          owner,
          lane: 'short',
          kinds: [`k-${kind}`],
          now,
          leaseUntil: at(Date.parse(now) - Date.parse(T0) + 10_000),
          limit: 5,
          backgroundWaitMs: 0,
        }),
      );
    expect(await claimJobs('w1', at(0))).toMatchObject([{ id, payload: { a: 1 }, attempts: 1, leaseOwner: 'w1' }]);
    expect(await claimJobs('w2', at(5000))).toEqual([]);
    await uow.run((tx) => tx.jobs.retry(id, 'w1', at(60_000), 'boom'));
    expect(await claimJobs('w2', at(59_000))).toEqual([]);
    expect(await claimJobs('w2', at(60_000))).toMatchObject([{ id, attempts: 2, lastError: 'boom' }]);
    await uow.run((tx) => tx.jobs.finish(id, 'w2', at(61_000), null));
    expect(await repos.jobs.findById(id)).toMatchObject({ doneAt: at(61_000), leaseOwner: null });
    expect(await claimJobs('w3', at(999_000))).toEqual([]);
  });

  it('lets one worker at a time hold the worker lease', async () => {
    const lease = get().db
      ? new SqlWorkerLease(get().db!)
      : new InMemoryWorkerLease(new MemoryStore({ jobs: new Map(), workerLease: null }));
    const owner = `${kind}-a`;
    expect(await lease.acquire(owner, at(0), at(1000))).toBe(true);
    expect(await lease.acquire('other', at(500), at(1500))).toBe(false);
    expect(await lease.acquire(owner, at(900), at(1900))).toBe(true);
    expect(await lease.acquire('other', at(1901), at(2901))).toBe(true);
    await lease.release('other');
    expect(await lease.acquire(owner, at(1950), at(2950))).toBe(true);
  });
});
