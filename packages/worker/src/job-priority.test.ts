import { jobType, type JobDefinition } from '@fundi/application';
import { describe, expect, it } from 'vitest';
import { aWorker, gate, stoppedAfterEach, until } from './job-runtime-fixture.js';

const start = stoppedAfterEach();

/** Background jobs (notifications) wait while the worker runs an interactive one (an import); see `JobPriority`. */
describe('job runtime: background jobs and interactive ones', () => {
  const defs = (started: string[], hold: Promise<void>) => {
    const importJob: JobDefinition<null> = {
      ...jobType('test.import', 'long', { priority: 'interactive' }),
      parse: () => null,
      run: async () => {
        started.push('import');
        await hold;
      },
    };
    const job = (name: string, priority: 'normal' | 'background'): JobDefinition<null> => ({
      ...jobType(`test.${name}`, 'short', { priority }),
      parse: () => null,
      run: async () => void started.push(name),
    });
    return { importJob, mail: job('mail', 'background'), replay: job('replay', 'normal') };
  };

  it('start only once the interactive job ends; other jobs run beside it', async () => {
    const hold = gate();
    const started: string[] = [];
    const d = defs(started, hold.opened);
    const t = aWorker([d.importJob, d.mail, d.replay]);
    await t.enqueue(d.importJob, null);
    await start(t.worker);
    await until(() => started.includes('import'));
    const mail = await t.enqueue(d.mail, null);
    await t.enqueue(d.replay, null);
    t.worker.nudge();
    await until(() => started.includes('replay'));
    // Many polls (10 ms each) later, the background job still waits.
    await new Promise((ok) => setTimeout(ok, 200));
    expect(started).not.toContain('mail');
    expect((await t.job(mail.id))!.attempts).toBe(0);
    const ended = Date.now();
    hold.open();
    await until(() => started.includes('mail'));
    expect(started).toEqual(['import', 'replay', 'mail']);
    // Woken by the end of the import, not by a later poll or the hold running out.
    expect(Date.now() - ended).toBeLessThan(1000);
  });

  it('run beside an interactive job that went on longer than backgroundWaitMs', async () => {
    const hold = gate();
    const started: string[] = [];
    const d = defs(started, hold.opened);
    // The hold is measured by the jobs' clock: here one that moves with wall time.
    const t = aWorker([d.importJob, d.mail], { backgroundWaitMs: 150, clock: { now: () => new Date() } });
    await t.enqueue(d.importJob, null);
    await start(t.worker);
    await until(() => started.includes('import'));
    const since = Date.now();
    await t.enqueue(d.mail, null);
    t.worker.nudge();
    await until(() => started.includes('mail'));
    expect(Date.now() - since).toBeGreaterThanOrEqual(100);
    hold.open();
  });
});
