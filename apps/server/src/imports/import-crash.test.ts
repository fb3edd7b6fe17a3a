import { defaultFileStore } from '@fundi/adapters';
import { buildBeforeAll, describeEachStorage, exited, scratchDir, workerProcesses } from '@fundi/adapters/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { LEARNER_HEADER, learnerLine, upload } from '../testing/import-fixtures.js';

const ROWS = 12_000;
const BAD = 12;

buildBeforeAll();

describeEachStorage(
  'an import whose worker is SIGKILLed mid-confirm',
  (_get, kind) => {
    let s: TestServer;
    const dataDir = scratchDir('fundi-import-crash-');
    beforeAll(async () => {
      s = await startTestServer(kind, { fileStore: defaultFileStore(dataDir) });
    });
    afterAll(async () => {
      await s?.close();
    });
    // After the server's hooks: after-hooks run last registered first, so leftover workers die before the server
    // closes. The test server's master key (testing/test-server.ts): the worker must read the file it stored.
    const spawnWorker = workerProcesses({ masterKey: Buffer.alloc(32, 7), dataDir });

    it('is resumed by the next worker after the last committed batch: every valid row exactly once', async () => {
      const admin = (await s.tenant('crash')).key;
      const lines = [LEARNER_HEADER];
      for (let i = 0; i < ROWS; i++) lines.push(learnerLine(1000 + i, i % 1000 === 7 ? { email: 'bad' } : {}));
      const r = await upload(s, admin, '/api/v1', 'learners', lines.join('\n'), { dryRun: false });
      expect(r.status).toBe(202);
      const state = async () => (await s.call('GET', `/api/v1/imports/${r.body.id}?errorsLimit=0`, admin)).body;

      const first = spawnWorker(s.storage.target!);
      const deadline = Date.now() + 60_000;
      for (;;) {
        const st = await state();
        if (st.status === 'importing' && st.progress.processed >= 3000) break;
        if (st.status === 'completed' || Date.now() > deadline) throw new Error(`no kill point: ${JSON.stringify(st)}`);
        await new Promise((ok) => setTimeout(ok, 20));
      }
      first.kill('SIGKILL');
      expect(await exited(first)).toBeNull();
      const killedAt = await state();
      expect(killedAt.status).toBe('importing');
      expect(killedAt.progress.processed).toBeLessThan(ROWS);
      const again = await s.call('POST', `/api/v1/imports/${r.body.id}/confirm`, admin);
      expect(again.status).toBe(409);
      expect(await state()).toMatchObject({ status: 'importing', progress: killedAt.progress });

      const second = spawnWorker(s.storage.target!);
      for (;;) {
        const st = await state();
        if (st.status === 'completed') break;
        if (Date.now() > deadline + 60_000) throw new Error(`not completed: ${JSON.stringify(st)}`);
        await new Promise((ok) => setTimeout(ok, 50));
      }
      const done = await state();
      expect(done).toMatchObject({ totalRows: ROWS, importedRows: ROWS - BAD, errorCount: BAD });
      const db = s.storage.db!;
      const count = async (sql: string) => Number((await db.first<{ n: number }>(sql))!.n);
      expect(await count('SELECT COUNT(*) AS n FROM learners')).toBe(ROWS - BAD);
      // Each batch's learners are named once, in the batch's compact event: every learner exactly once.
      const written = (
        await db.all<{ data: string }>("SELECT data FROM outbox_events WHERE type = 'learners.written'")
      ).flatMap((w) => JSON.parse(w.data).learnerIds as string[]);
      expect(written).toHaveLength(ROWS - BAD);
      expect(new Set(written).size).toBe(ROWS - BAD);
      expect(await count("SELECT COUNT(*) AS n FROM outbox_events WHERE type = 'import.completed'")).toBe(1);
      expect(await count('SELECT COUNT(*) AS n FROM import_errors')).toBe(BAD);
      second.kill('SIGTERM');
      expect(await exited(second)).toBe(0);
    }, 180_000);
  },
  ['sqlite', 'postgres'],
);
