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
import { newId, type JobLane, type JobPriority } from '@fundi/domain';
import { expect, it } from 'vitest';

const FIXTURE = join(REPO_ROOT, 'apps/worker/test-fixtures/priority-worker.mjs');

buildBeforeAll();

/** Job priority is in the row: a worker process holds background jobs while another process runs interactive work. */
describeEachStorage(
  'job priority across two worker processes',
  (get) => {
    const spawnWorker = workerProcesses({ script: FIXTURE, masterKey: Buffer.alloc(32, 7) });

    it('a background job waits in one process while an interactive job runs in the other, and starts after it', async () => {
      const { db, repos, target } = get();
      await db!.run('CREATE TABLE priority_gate (open INTEGER NOT NULL)');
      const enqueue = (kind: string, lane: JobLane, priority: JobPriority) => {
        const now = new Date().toISOString();
        return repos.jobs.enqueue({
          id: newId('job'),
          kind,
          lane,
          priority,
          payload: {},
          dueAt: now,
          maxAttempts: 3,
          idempotencyKey: null,
          createdAt: now,
        });
      };
      const interactiveProcess = spawnWorker(target!, { PRIORITY_KINDS: 'interactive' });
      const backgroundProcess = spawnWorker(target!, { PRIORITY_KINDS: 'background' });
      const imp = await enqueue('test.interactive', 'long', 'interactive');
      await until(async () => (await repos.jobs.findById(imp.id))!.claimedAt !== null, 20_000, 'the interactive job');
      const bg = await enqueue('test.background', 'short', 'background');
      // The other process polls every 50 ms: a second and a half is thirty chances to take it.
      await new Promise((ok) => setTimeout(ok, 1500));
      expect(await repos.jobs.findById(bg.id)).toMatchObject({ attempts: 0, doneAt: null });
      // The background job is claimed once the interactive one has ended, which is after the gate opened. Its claim
      // time is taken by its process just before the claim's statement, so it may fall a moment before the other
      // process's done time: the gate's opening is the bound a loaded machine cannot blur.
      const opened = new Date().toISOString();
      await db!.run('INSERT INTO priority_gate (open) VALUES (1)');
      await until(async () => (await repos.jobs.findById(bg.id))!.doneAt !== null, 20_000, 'the background job');
      const [i, b] = [(await repos.jobs.findById(imp.id))!, (await repos.jobs.findById(bg.id))!];
      expect(i.doneAt).not.toBeNull();
      expect(b.claimedAt! >= opened).toBe(true);
      expect(b).toMatchObject({ attempts: 1, lastError: null });
      interactiveProcess.kill('SIGTERM');
      backgroundProcess.kill('SIGTERM');
      expect(await exited(interactiveProcess)).toBe(0);
      expect(await exited(backgroundProcess)).toBe(0);
    }, 90_000);
  },
  ['postgres'],
  [platformStorage],
);
