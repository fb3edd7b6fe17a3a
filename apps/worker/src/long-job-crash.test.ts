import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { platformStorage, type DatabaseTarget } from '@fundi/adapters';
import { describeEachStorage, POSTGRES_TEST_URL, scratchDir } from '@fundi/adapters/testing';
import { newId } from '@fundi/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const FIXTURE = join(ROOT, 'apps/worker/test-fixtures/long-job-worker.mjs');
const STEPS = 30;

function spawnWorker(target: DatabaseTarget): ChildProcess {
  const url =
    target.kind === 'sqlite'
      ? `sqlite:${target.filename}`
      : `${POSTGRES_TEST_URL}${POSTGRES_TEST_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${target.searchPath}`)}`;
  return spawn(process.execPath, [FIXTURE], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      DATABASE_URL: url,
      FUNDI_DATA_DIR: scratchDir('fundi-worker-'),
      FUNDI_MASTER_KEY: Buffer.alloc(32, 6).toString('base64'),
      FUNDI_WORKER_LEASE_MS: '1000',
      FUNDI_WEBHOOK_TIMEOUT_MS: '500',
      FUNDI_WORKER_POLL_MS: '50',
      LOG_LEVEL: 'silent',
    },
  });
}

const exited = (p: ChildProcess) =>
  new Promise<number | null>((ok) => (p.exitCode !== null ? ok(p.exitCode) : p.once('exit', (code) => ok(code))));

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((ok) => setTimeout(ok, 25));
  }
}

beforeAll(() => {
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
}, 180_000);

describeEachStorage(
  'a long job when its worker is SIGKILLed',
  (get) => {
    const children: ChildProcess[] = [];
    afterAll(() => {
      for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    });

    it('is resumed once by the next worker from its last committed step: every step exactly once', async () => {
      const { db, repos, target } = get();
      await db!.run(
        'CREATE TABLE kill_steps (run_key TEXT NOT NULL, step INTEGER NOT NULL, PRIMARY KEY (run_key, step))',
      );
      const runKey = newId('job');
      const now = new Date().toISOString();
      const job = await repos.jobs.enqueue({
        id: newId('job'),
        kind: 'test.counted_steps',
        lane: 'long',
        payload: { steps: STEPS, delayMs: 60, runKey },
        dueAt: now,
        maxAttempts: 5,
        idempotencyKey: null,
        createdAt: now,
      });
      const progress = async () => (await repos.jobs.findById(job.id))!.progress?.processed ?? 0;
      const first = spawnWorker(target!);
      children.push(first);
      await until(async () => (await progress()) >= 8, 15_000, 'the first steps');
      first.kill('SIGKILL');
      expect(await exited(first)).toBeNull();
      const before = await progress();
      expect(before).toBeLessThan(STEPS);
      const second = spawnWorker(target!);
      children.push(second);
      await until(async () => (await repos.jobs.findById(job.id))!.doneAt !== null, 20_000, 'the job to finish');
      expect(await repos.jobs.findById(job.id)).toMatchObject({
        attempts: 2,
        lastError: null,
        progress: { processed: STEPS, total: STEPS },
      });
      const rows = await db!.all<{ step: number }>('SELECT step FROM kill_steps WHERE run_key = ? ORDER BY step', [
        runKey,
      ]);
      expect(rows.map((r) => Number(r.step))).toEqual(Array.from({ length: STEPS }, (_, i) => i));
      second.kill('SIGTERM');
      expect(await exited(second)).toBe(0);
    }, 45_000);
  },
  ['sqlite', 'postgres'],
  [platformStorage],
);
