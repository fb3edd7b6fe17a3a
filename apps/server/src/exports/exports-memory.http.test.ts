import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import { aLearner, idNumberFor } from '@fundi/domain/testing';
import { startTestServer, type TestServer } from '../testing/test-server.js';

const N = 10_000;
const MB = 1024 * 1024;

describeEachStorage(
  'a 10,000-learner export',
  (_get, kind) => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer(kind, { worker: {} });
    });
    afterAll(() => s?.close());

    it('streams from the database to the store: the file is complete and memory stays flat', async () => {
      const t = await s.tenant(`mem-${kind}`);
      await s.storage.uow.run(async (tx) => {
        const learners = tx.learners;
        for (let i = 0; i < N; i++)
          await learners.insert(
            aLearner({
              tenantId: t.id,
              idNumber: idNumberFor(700_000 + i),
              email: `m${i}@example.co.za`,
              jobTitle: `Artisan ${'x'.repeat(60)}`,
            }),
          );
      });
      global.gc?.();
      const base = process.memoryUsage();
      let peakHeap = base.heapUsed;
      let peakRss = base.rss;
      const sampler = setInterval(() => {
        const m = process.memoryUsage();
        peakHeap = Math.max(peakHeap, m.heapUsed);
        peakRss = Math.max(peakRss, m.rss);
      }, 5);
      const q = await s.call('POST', '/api/v1/exports', t.key, { type: 'learners' });
      expect(q.status).toBe(202);
      let done: { status: string; rowCount: number; size: number } | null = null;
      for (let i = 0; i < 1200 && done?.status !== 'ready'; i++) {
        await new Promise((ok) => setTimeout(ok, 50));
        done = (await s.call('GET', `/api/v1/exports/${q.body.id}`, t.key)).body;
      }
      clearInterval(sampler);
      expect(done).toMatchObject({ status: 'ready', rowCount: N });
      // The whole file and its rows held at once would be several times its size; pages of 1,000 rows are not.
      expect(done!.size).toBeGreaterThan(2 * MB);
      expect((peakHeap - base.heapUsed) / MB).toBeLessThan(48);
      expect((peakRss - base.rss) / MB).toBeLessThan(64);
      const g = await s.call('GET', `/api/v1/exports/${q.body.id}/download`, t.key);
      const res = await fetch(g.body.url);
      const text = await res.text();
      expect(text.split('\r\n').length).toBe(N + 2);
    }, 180_000);
  },
  ['sqlite', 'postgres'],
);
