import {
  buildBeforeAll,
  describeEachStorage,
  exited,
  receiverForSuite,
  LOOPBACK_RECEIVER_ENV,
  until,
  workerProcesses,
} from '@fundi/adapters/testing';
import { subscribedTenant } from './testing/subscribed-tenant.js';
import { expect, it } from 'vitest';

const MASTER_KEY = Buffer.alloc(32, 6);
const BOUND_MS = 2000;

buildBeforeAll();

/**
 * `npm run worker` on Postgres polls once a minute here, and nothing in its process writes: an event committed by
 * another process reaches the receiver within a couple of seconds only because the database wakes the worker.
 */
describeEachStorage(
  'the worker process is woken by Postgres when another process commits an event',
  (get) => {
    const receiver = receiverForSuite();
    const spawnWorker = workerProcesses({
      masterKey: MASTER_KEY,
      env: {
        ...LOOPBACK_RECEIVER_ENV,
        FUNDI_WORKER_LEASE_MS: '5000',
        FUNDI_WORKER_POLL_MS: '60000',
      },
    });

    it('delivers within the bound, twice, and stops cleanly on SIGTERM', async () => {
      const storage = get();
      const tenantId = await subscribedTenant(storage.target!, MASTER_KEY, receiver().url);
      const commit = (id: string) =>
        storage.uow.run((tx) =>
          tx.outbox.add({ id, tenantId, type: 'learner.created', occurredAt: new Date().toISOString(), data: { id } }),
        );

      const worker = spawnWorker(storage.target!);
      // The first event may be found by the worker's first look; once it is delivered, the worker sleeps a minute.
      await commit('evt_wake_first');
      await until(
        () => receiver().ids().has('evt_wake_first'),
        20_000,
        'the worker to start and deliver the first event',
      );
      for (const id of ['evt_wake_2', 'evt_wake_3']) {
        await new Promise((ok) => setTimeout(ok, 500));
        const committed = Date.now();
        await commit(id);
        await until(() => receiver().ids().has(id), BOUND_MS, `${id} within ${BOUND_MS} ms`);
        expect(Date.now() - committed).toBeLessThan(BOUND_MS);
      }
      worker.kill('SIGTERM');
      expect(await exited(worker)).toBe(0);
    }, 40_000);
  },
  ['postgres'],
);
