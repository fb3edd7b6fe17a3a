import { join } from 'node:path';
import { platformStorage } from '@fundi/adapters';
import {
  buildBeforeAll,
  describeEachStorage,
  exited,
  REPO_ROOT,
  until,
  workerProcesses,
} from '@fundi/adapters/testing';
import { newId } from '@fundi/domain';
import { expect, it } from 'vitest';

const FIXTURE = join(REPO_ROOT, 'apps/worker/test-fixtures/long-job-worker.mjs');
const STEPS = 30;

buildBeforeAll();

describeEachStorage(
  'a long job when its worker is SIGKILLed',
  (get) => {
    const spawnWorker = workerProcesses({ script: FIXTURE, masterKey: Buffer.alloc(32, 6) });

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
      await until(async () => (await progress()) >= 8, 15_000, 'the first steps');
      first.kill('SIGKILL');
      expect(await exited(first)).toBeNull();
      const before = await progress();
      expect(before).toBeLessThan(STEPS);
      const second = spawnWorker(target!);
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
