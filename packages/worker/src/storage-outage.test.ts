import { jobType, type JobDefinition } from '@fundi/application';
import { DomainError } from '@fundi/domain';
import { describe, expect, it } from 'vitest';
import { aWorker, stoppedAfterEach, until } from './job-runtime-fixture.js';
import { backoffAfter, MAX_BACKOFF_MS } from './storage-outage.js';

const start = stoppedAfterEach();
const pause = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** A logger that keeps every line. */
function recording() {
  const lines: { level: string; msg: string }[] = [];
  const at = (level: string) => (_: object, msg: string) => void lines.push({ level, msg });
  return { logger: { info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

describe('the worker while the database is unreachable', () => {
  it('waits longer after each failure, up to a cap', () => {
    expect([1, 2, 3, 4].map((n) => backoffAfter(n, 200))).toEqual([400, 800, 1600, 3200]);
    expect(backoffAfter(5, 200)).toBe(MAX_BACKOFF_MS);
    expect(backoffAfter(1000, 200)).toBe(MAX_BACKOFF_MS);
  });

  it('backs off, logs the outage once and its end once, and runs what was queued meanwhile when it is back', async () => {
    let down = true;
    let calls = 0;
    const { logger, lines } = recording();
    const ran: string[] = [];
    const mail: JobDefinition<{ to: string }> = {
      ...jobType('test.outage-mail', 'short'),
      parse: (p) => p as { to: string },
      run: async (p) => void ran.push(p.to),
    };
    const t = aWorker([mail], {
      logger,
      down: () => {
        if (down) calls++;
        return down;
      },
    });
    await start(t.worker);
    await pause(700);
    // Polling every 10 ms, three loops would have asked about 200 times in 700 ms; backing off they ask a few times.
    expect(calls).toBeLessThan(40);
    const job = await t.enqueue(mail, { to: 'queued while down' });
    down = false;
    await until(async () => (await t.job(job.id))?.doneAt !== null, 3000);
    expect(ran).toEqual(['queued while down']);
    expect(lines.filter((l) => l.msg.startsWith('database unreachable'))).toHaveLength(1);
    expect(lines.filter((l) => l.msg.startsWith('database reachable again'))).toHaveLength(1);
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('gives a job that met an outage back to the queue, never failing it, and runs it again once the database is back', async () => {
    let down = false;
    let runs = 0;
    const step: JobDefinition<null> = {
      // One attempt only: an outage must not count as the job's failure.
      ...jobType('test.outage-step', 'long', { maxAttempts: 1 }),
      parse: () => null,
      run: async () => {
        runs++;
        if (runs === 1) {
          down = true;
          throw DomainError.storageUnavailable(new Error('terminating connection due to administrator command'));
        }
      },
    };
    const t = aWorker([step], { down: () => down });
    const job = await t.enqueue(step, null);
    await start(t.worker);
    await until(() => runs === 1);
    await pause(300);
    expect(await t.job(job.id)).toMatchObject({ doneAt: null, lastError: null });
    down = false;
    await until(async () => (await t.job(job.id))?.doneAt !== null, 3000);
    expect(runs).toBe(2);
    expect(await t.job(job.id)).toMatchObject({ lastError: null, attempts: 2 });
  });
});
