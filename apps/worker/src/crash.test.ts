import { expect, it } from 'vitest';
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

const MASTER_KEY = Buffer.alloc(32, 5);
const N = 300;

buildBeforeAll();

describeEachStorage(
  'the worker process: SIGKILL loses nothing',
  (get, kind) => {
    const receiver = receiverForSuite({ status: 200, delayMs: 40 });
    const spawnWorker = workerProcesses({
      masterKey: MASTER_KEY,
      env: {
        ...LOOPBACK_RECEIVER_ENV,
        FUNDI_WORKER_LEASE_MS: '1500',
        FUNDI_WORKER_CONCURRENCY: '16',
      },
    });

    /** A tenant subscribed to learner.created at the receiver, and `n` committed events for it. */
    async function seed(n: number): Promise<{ ids: string[]; delivered: () => Promise<number> }> {
      const storage = get();
      const tenantId = await subscribedTenant(storage.target!, MASTER_KEY, receiver().url);
      const ids = Array.from({ length: n }, (_, i) => `evt_crash_${kind}_${Date.now()}_${i}`);
      await storage.uow.run(async (tx) => {
        for (const id of ids)
          await tx.outbox.add({
            id,
            tenantId,
            type: 'learner.created',
            occurredAt: new Date().toISOString(),
            data: { n: id },
          });
      });
      const delivered = async () =>
        Number(
          (
            await storage.db!.first<{ n: number }>(
              `SELECT count(*) AS n FROM webhook_deliveries WHERE tenant_id = ? AND status = 'delivered'`,
              [tenantId],
            )
          )?.n ?? 0,
        );
      return { ids, delivered };
    }

    it('is killed mid-delivery, restarted, and every event is delivered', async () => {
      const { ids, delivered } = await seed(N);
      const first = spawnWorker(get().target!);
      await until(() => ids.filter((id) => receiver().ids().has(id)).length >= 40, 15_000, 'the first deliveries');
      first.kill('SIGKILL');
      expect(await exited(first)).toBeNull();
      const before = await delivered();
      expect(before).toBeLessThan(N);
      const second = spawnWorker(get().target!);
      await until(
        async () => (await delivered()) === N,
        20_000,
        `all ${N} deliveries (had ${before} before the restart)`,
      );
      expect(ids.every((id) => receiver().ids().has(id))).toBe(true);
      second.kill('SIGTERM');
      expect(await exited(second)).toBe(0);
    }, 40_000);

    if (kind === 'postgres') {
      it('two workers share the work and never hold the same event at the same time', async () => {
        const { ids, delivered } = await seed(N);
        const received = receiver().received.length;
        const workers = [spawnWorker(get().target!), spawnWorker(get().target!)];
        await until(async () => (await delivered()) === N, 20_000, `all ${N} deliveries`);
        for (const w of workers) w.kill('SIGTERM');
        expect(await Promise.all(workers.map(exited))).toEqual([0, 0]);
        const mine = receiver()
          .received.slice(received)
          .map((r) => String(r.headers['webhook-id']))
          .filter((id) => ids.includes(id));
        expect(receiver().overlaps.filter((id) => ids.includes(id))).toEqual([]);
        expect(mine).toHaveLength(N);
        expect(new Set(mine).size).toBe(N);
      }, 40_000);
    }
  },
  ['sqlite', 'postgres'],
);
