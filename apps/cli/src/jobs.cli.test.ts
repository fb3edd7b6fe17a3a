import { platformStorage, tenantStorage } from '@fundi/adapters';
import { databaseUrlOf, describeEachStorage, scratchDir } from '@fundi/adapters/testing';
import { newId, type NewJob } from '@fundi/domain';
import { expect, it } from 'vitest';
import { cliInProcess, type Run } from './testing/cli-runs.js';

/** The CLI in this process (cli.test.ts runs the binary itself), over a database the test also writes to. */
const cli = (env: Record<string, string>, ...args: string[]) => cliInProcess(env, args);

function json(r: Run) {
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

function refused(r: Run, message: RegExp): void {
  expect(r.code).not.toBe(0);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(message);
}

/** `fundi jobs list|show|retry|cancel` against a real database shared with the test (the CLI opens its own connections). */
describeEachStorage(
  'CLI: jobs',
  (get) => {
    const minute = 60_000;
    const aJob = (o: Partial<NewJob> = {}): NewJob => {
      const now = new Date().toISOString();
      return {
        id: newId('job'),
        kind: 'test.cli',
        lane: 'long',
        payload: {},
        dueAt: now,
        maxAttempts: 2,
        idempotencyKey: null,
        createdAt: now,
        ...o,
      };
    };
    const claim = (owner: string, leaseMs: number) => {
      const now = new Date();
      return get().uow.run((tx) =>
        tx.jobs.claimDue({
          owner,
          lane: 'long',
          kinds: ['test.cli'],
          now: now.toISOString(),
          leaseUntil: new Date(now.getTime() + leaseMs).toISOString(),
          limit: 1,
          backgroundWaitMs: 0,
        }),
      );
    };

    it('lists, shows, retries and cancels jobs, and refuses what their state does not allow', async () => {
      const env = {
        DATABASE_URL: databaseUrlOf(get().target!),
        FUNDI_DATA_DIR: scratchDir('fundi-cli-jobs-'),
        FUNDI_MASTER_KEY: Buffer.alloc(32, 3).toString('base64'),
      };
      const tenant = json(
        await cli(env, 'tenants', 'create', '--slug', 'jobs', '--name', 'J', '--plan', 'pilot', '--json'),
      );
      const { repos } = get();
      // A job that gave up, one that runs now, and one waiting (due in an hour).
      const dead = await repos.jobs.enqueue(aJob({ payload: { tenantId: tenant.tenant.id, file: 'a.csv' } }));
      await claim('w1', minute);
      await get().uow.run((tx) => tx.jobs.finish(dead.id, 'w1', new Date().toISOString(), 'parse error on row 3'));
      const running = await repos.jobs.enqueue(aJob());
      await claim('w2', 10 * minute);
      const queued = await repos.jobs.enqueue(aJob({ dueAt: new Date(Date.now() + 60 * minute).toISOString() }));

      const all = json(await cli(env, 'jobs', 'list', '--kind', 'test.cli', '--json'));
      expect(all.map((j: { id: string; state: string }) => [j.id, j.state])).toEqual([
        [queued.id, 'queued'],
        [running.id, 'running'],
        [dead.id, 'failed'],
      ]);
      expect(all[0]).not.toHaveProperty('payload');
      const failed = json(await cli(env, 'jobs', 'list', '--state', 'failed', '--tenant', 'jobs', '--json'));
      expect(failed).toMatchObject([
        { id: dead.id, tenantId: tenant.tenant.id, attempts: 1, lastError: 'parse error on row 3' },
      ]);
      expect(json(await cli(env, 'jobs', 'list', '--kind', 'test.cli', '--limit', '1', '--json'))).toHaveLength(1);
      const shown = json(await cli(env, 'jobs', 'show', dead.id, '--json'));
      expect(shown).toMatchObject({ id: dead.id, state: 'failed', payload: { file: 'a.csv' }, priority: 'normal' });
      const text = await cli(env, 'jobs', 'show', dead.id);
      expect(text.stdout).toContain('parse error on row 3');

      const retried = json(await cli(env, 'jobs', 'retry', dead.id, '--json'));
      expect(retried).toMatchObject({ id: dead.id, state: 'queued', attempts: 0, lastError: null, doneAt: null });
      expect(Date.parse(retried.dueAt)).toBeLessThanOrEqual(Date.now());
      refused(await cli(env, 'jobs', 'retry', running.id), /cannot be retried: it is running/);
      refused(await cli(env, 'jobs', 'cancel', running.id), /cannot be cancelled: it is running/);
      expect(await repos.jobs.findById(running.id)).toMatchObject({ doneAt: null, cancelledAt: null });

      const cancelled = json(await cli(env, 'jobs', 'cancel', queued.id, '--json'));
      expect(cancelled).toMatchObject({ id: queued.id, state: 'cancelled' });
      refused(await cli(env, 'jobs', 'cancel', queued.id), /cancelled already/);
      const plain = await cli(env, 'jobs', 'cancel', dead.id);
      expect(plain.stdout).toContain(`Job ${dead.id} (test.cli) is cancelled`);
      expect(json(await cli(env, 'jobs', 'list', '--state', 'cancelled', '--json'))).toHaveLength(2);
    }, 120_000);

    it('refuses bad input with a message on stderr and nothing on stdout', async () => {
      const env = { DATABASE_URL: databaseUrlOf(get().target!), FUNDI_DATA_DIR: scratchDir('fundi-cli-jobs-') };
      // One after the other, as cli.test.ts explains (knex's migration lock under SQLite).
      const runs: Run[] = [];
      for (const args of [
        ['jobs', 'list', '--state', 'stuck', '--json'],
        ['jobs', 'list', '--limit', '0', '--json'],
        ['jobs', 'list', '--tenant', 'nobody', '--json'],
        ['jobs', 'show', 'job_nothing', '--json'],
        ['jobs', 'retry', '--json'],
      ])
        runs.push(await cli(env, ...args));
      refused(runs[0]!, /state.*queued, running, failed, done, cancelled/);
      refused(runs[1]!, /limit.*1 to 1000/);
      refused(runs[2]!, /not found/i);
      refused(runs[3]!, /not found/i);
      refused(runs[4]!, /needs the job id/);
    }, 60_000);
  },
  ['sqlite', 'postgres'],
  [platformStorage, tenantStorage],
);
