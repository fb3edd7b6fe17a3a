import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultFileStore, type DatabaseTarget } from '@fundi/adapters';
import { describeEachStorage, POSTGRES_TEST_URL, scratchDir } from '@fundi/adapters/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { LEARNER_HEADER, learnerLine, upload } from '../testing/import-fixtures.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
const WORKER = join(ROOT, 'apps/worker/dist/main.js');
const ROWS = 12_000;
const BAD = 12;

function spawnWorker(target: DatabaseTarget, dataDir: string): ChildProcess {
  const url =
    target.kind === 'sqlite'
      ? `sqlite:${target.filename}`
      : `${POSTGRES_TEST_URL}${POSTGRES_TEST_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${target.searchPath}`)}`;
  return spawn(process.execPath, [WORKER], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      DATABASE_URL: url,
      FUNDI_DATA_DIR: dataDir,
      // The test server's master key (testing/test-server.ts): the worker must read the file it stored.
      FUNDI_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
      FUNDI_WORKER_LEASE_MS: '1000',
      FUNDI_WEBHOOK_TIMEOUT_MS: '500',
      FUNDI_WORKER_POLL_MS: '50',
      LOG_LEVEL: 'silent',
    },
  });
}

const exited = (p: ChildProcess) =>
  new Promise<number | null>((ok) => (p.exitCode !== null ? ok(p.exitCode) : p.once('exit', (code) => ok(code))));

beforeAll(() => {
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
}, 180_000);

describeEachStorage(
  'an import whose worker is SIGKILLed mid-confirm',
  (_get, kind) => {
    let s: TestServer;
    const dataDir = scratchDir('fundi-import-crash-');
    const children: ChildProcess[] = [];
    beforeAll(async () => {
      s = await startTestServer(kind, { fileStore: defaultFileStore(dataDir) });
    });
    afterAll(async () => {
      for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
      await s?.close();
    });

    it('is resumed by the next worker after the last committed batch: every valid row exactly once', async () => {
      const admin = (await s.tenant('crash')).key;
      const lines = [LEARNER_HEADER];
      for (let i = 0; i < ROWS; i++) lines.push(learnerLine(1000 + i, i % 1000 === 7 ? { email: 'bad' } : {}));
      const r = await upload(s, admin, '/api/v1', 'learners', lines.join('\n'), { dryRun: false });
      expect(r.status).toBe(202);
      const state = async () => (await s.call('GET', `/api/v1/imports/${r.body.id}?errorsLimit=0`, admin)).body;

      const first = spawnWorker(s.storage.target!, dataDir);
      children.push(first);
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

      const second = spawnWorker(s.storage.target!, dataDir);
      children.push(second);
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
      expect(await count("SELECT COUNT(*) AS n FROM outbox_events WHERE type = 'learner.created'")).toBe(ROWS - BAD);
      expect(await count("SELECT COUNT(*) AS n FROM outbox_events WHERE type = 'import.completed'")).toBe(1);
      expect(await count('SELECT COUNT(*) AS n FROM import_errors')).toBe(BAD);
      second.kill('SIGTERM');
      expect(await exited(second)).toBe(0);
    }, 180_000);
  },
  ['sqlite', 'postgres'],
);
