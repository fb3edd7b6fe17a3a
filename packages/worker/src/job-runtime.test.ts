import { jobType, type JobDefinition } from '@fundi/application';
import { FixedClock } from '@fundi/testing';
import { describe, expect, it } from 'vitest';
import { aWorker, gate, quiet, stoppedAfterEach, until } from './job-runtime-fixture.js';
import { Worker } from './worker.js';

const start = stoppedAfterEach();

describe('job runtime', () => {
  it('runs short jobs while a long job holds its lane', async () => {
    const long = gate();
    const done: string[] = [];
    const importJob: JobDefinition<{ n: number }> = {
      ...jobType('test.import', 'long'),
      parse: (p) => p as { n: number },
      run: async () => {
        await long.opened;
        done.push('import');
      },
    };
    const mailJob: JobDefinition<{ to: string }> = {
      ...jobType('test.mail', 'short'),
      parse: (p) => p as { to: string },
      run: async (p) => void done.push(p.to),
    };
    const t = aWorker([importJob, mailJob]);
    const imp = await t.enqueue(importJob, { n: 1 });
    for (const to of ['a', 'b', 'c']) await t.enqueue(mailJob, { to });
    await start(t.worker);
    await until(() => done.length === 3);
    expect(done).toEqual(['a', 'b', 'c']);
    expect((await t.job(imp.id))!.doneAt).toBeNull();
    long.open();
    await until(async () => (await t.job(imp.id))!.doneAt !== null);
    expect(done).toContain('import');
  });

  it("frees a job's slot once its run succeeded: the next job runs while the finish is written, and a stop waits for it", async () => {
    const ran: number[] = [];
    const one: JobDefinition<{ n: number }> = {
      ...jobType('test.one-slot', 'short'),
      parse: (p) => p as { n: number },
      run: async (p) => void ran.push(p.n),
    };
    const t = aWorker([one], { slots: { short: 1, long: 1 } });
    // The first finish is held, as a slow database would hold it.
    const held = gate();
    const finish = t.deps.queue.finish;
    let first = true;
    t.deps.queue.finish = async (...a) => {
      if (first) {
        first = false;
        await held.opened;
      }
      return finish(...a);
    };
    const a = await t.enqueue(one, { n: 1 });
    const b = await t.enqueue(one, { n: 2 });
    await start(t.worker);
    await until(async () => (await t.job(b.id))!.doneAt !== null);
    expect(ran).toEqual([1, 2]);
    expect((await t.job(a.id))!.doneAt).toBeNull();
    let stopped = false;
    const stopping = t.worker.stop().then(() => {
      stopped = true;
    });
    await new Promise((ok) => setTimeout(ok, 50));
    expect(stopped).toBe(false);
    held.open();
    await stopping;
    expect((await t.job(a.id))!.doneAt).not.toBeNull();
  });

  it('never runs more jobs of a kind at once than its concurrency', async () => {
    let now = 0;
    let peak = 0;
    const capped: JobDefinition<null> = {
      ...jobType('test.capped', 'long'),
      concurrency: 1,
      parse: () => null,
      run: async () => {
        now++;
        peak = Math.max(peak, now);
        await new Promise((ok) => setTimeout(ok, 30));
        now--;
      },
    };
    const t = aWorker([capped], { slots: { short: 4, long: 4 } });
    const ids = await Promise.all([1, 2, 3].map(() => t.enqueue(capped, null)));
    await start(t.worker);
    await until(async () => (await Promise.all(ids.map((j) => t.job(j.id)))).every((j) => j!.doneAt));
    expect(peak).toBe(1);
  });

  it('aborts running jobs on stop, gives their leases back and does not record them as done', async () => {
    let aborted = false;
    const waits: JobDefinition<null> = {
      ...jobType('test.waits', 'long'),
      parse: () => null,
      run: (_p, ctx) =>
        new Promise<void>((ok) =>
          ctx.signal.addEventListener('abort', () => {
            aborted = true;
            ok();
          }),
        ),
    };
    const t = aWorker([waits]);
    const j = await t.enqueue(waits, null);
    await start(t.worker);
    await until(async () => (await t.job(j.id))!.leaseOwner !== null);
    await t.worker.stop();
    expect(aborted).toBe(true);
    expect(await t.job(j.id)).toMatchObject({ doneAt: null, leaseOwner: null, attempts: 1 });
  });

  it('renews the lease while a job runs, and aborts the job when the lease is lost', async () => {
    const seen: { signal?: AbortSignal } = {};
    const slow: JobDefinition<null> = {
      ...jobType('test.slow', 'long'),
      parse: () => null,
      run: (_p, ctx) =>
        new Promise<void>((ok) => {
          seen.signal = ctx.signal;
          ctx.signal.addEventListener('abort', () => ok());
        }),
    };
    const t = aWorker([slow], { leaseMs: 90 });
    const j = await t.enqueue(slow, null);
    await start(t.worker);
    await until(async () => (await t.job(j.id))!.leaseOwner === 'w-test');
    const first = (await t.job(j.id))!.leaseUntil!;
    t.clock.advance(60);
    await until(async () => (await t.job(j.id))!.leaseUntil! > first);
    expect(seen.signal!.aborted).toBe(false);
    // Another worker takes the job over (as after an expiry): the next heartbeat finds the lease gone.
    await t.mem.uow.run(async () => {
      t.jobRows().get(j.id)!.leaseOwner = 'w-other';
    });
    await until(() => seen.signal!.aborted);
    expect(await t.job(j.id)).toMatchObject({ doneAt: null, leaseOwner: 'w-other' });
  });

  it('a job whose outcome cannot be recorded is logged and left to its lease, never an unhandled rejection', async () => {
    let down = false;
    const warnings: string[] = [];
    const logger = { ...quiet, warn: (_o: object, msg: string) => void warnings.push(msg) };
    const failing: JobDefinition<null> = {
      ...jobType('test.db-gone', 'short'),
      parse: () => null,
      run: async () => {
        down = true;
        throw new Error('query failed');
      },
    };
    const t = aWorker([failing], { logger, down: () => down });
    const j = await t.enqueue(failing, null);
    await start(t.worker);
    await until(() => warnings.includes('database unreachable: the worker waits and tries again'));
    down = false;
    expect(await t.job(j.id)).toMatchObject({ doneAt: null, lastError: null, attempts: 1 });
  });

  it('retries a failing job with backoff, then gives up with the error after maxAttempts', async () => {
    let runs = 0;
    const failing: JobDefinition<null> = {
      ...jobType('test.failing', 'short', { maxAttempts: 2 }),
      parse: () => null,
      run: async () => {
        runs++;
        throw new Error(`boom ${runs}`);
      },
    };
    const clock = new FixedClock();
    const t = aWorker([failing], { clock });
    const j = await t.enqueue(failing, null);
    await start(t.worker);
    await until(async () => (await t.job(j.id))!.lastError === 'boom 1');
    expect(await t.job(j.id)).toMatchObject({
      doneAt: null,
      dueAt: new Date(clock.now().getTime() + 30_000).toISOString(),
    });
    clock.advance(30_000);
    t.worker.nudge();
    await until(async () => (await t.job(j.id))!.doneAt !== null);
    expect(await t.job(j.id)).toMatchObject({ lastError: 'boom 2', attempts: 2 });
    expect(runs).toBe(2);
  });

  it('fails a job whose payload does not parse at once, without retrying', async () => {
    const strict: JobDefinition<{ id: string }> = {
      ...jobType('test.strict', 'short'),
      parse: (p) => {
        if (typeof (p as { id?: unknown }).id !== 'string') throw new Error('id missing');
        return p as { id: string };
      },
      run: async () => {},
    };
    const t = aWorker([strict]);
    const j = await t.enqueue(strict, {} as { id: string });
    await start(t.worker);
    await until(async () => (await t.job(j.id))!.doneAt !== null);
    expect(await t.job(j.id)).toMatchObject({ attempts: 1, lastError: 'payload rejected: id missing' });
  });

  it('resumes from the progress an earlier attempt recorded, and exposes progress while running', async () => {
    const starts: (number | undefined)[] = [];
    let fail = true;
    const steps: JobDefinition<null> = {
      ...jobType('test.steps', 'long'),
      parse: () => null,
      run: async (_p, ctx) => {
        starts.push(ctx.progress?.processed);
        for (let i = ctx.progress?.processed ?? 0; i < 10; i++) {
          await ctx.report({ processed: i + 1, total: 10 });
          if (i === 4 && fail) {
            fail = false;
            throw new Error('crash at 5');
          }
        }
      },
    };
    const clock = new FixedClock();
    const t = aWorker([steps], { clock });
    const j = await t.enqueue(steps, null);
    await start(t.worker);
    await until(async () => (await t.job(j.id))!.lastError === 'crash at 5');
    expect((await t.job(j.id))!.progress).toEqual({ processed: 5, total: 10 });
    clock.advance(30_000);
    t.worker.nudge();
    await until(async () => (await t.job(j.id))!.doneAt !== null);
    expect(starts).toEqual([undefined, 5]);
    expect((await t.job(j.id))!.progress).toEqual({ processed: 10, total: 10 });
  });

  it('keeps one occurrence of a recurring job queued per time, whichever worker starts', async () => {
    const ran: string[] = [];
    const nightly: JobDefinition<{ what: string }> = {
      ...jobType('test.nightly', 'long'),
      parse: (p) => p as { what: string },
      run: async (p) => void ran.push(p.what),
      recurring: {
        payload: { what: 'purge' },
        next: (after) => new Date(Math.floor(after.getTime() / 86_400_000 + 1) * 86_400_000),
      },
    };
    const clock = new FixedClock(new Date('2026-06-01T08:00:00.000Z'));
    const t = aWorker([nightly], { clock });
    await start(t.worker);
    const second = new Worker(
      { ...t.deps },
      { owner: 'w-two', leaseMs: 5000, pollMs: 10, concurrency: 1, graceMs: 100 },
    );
    await start(second);
    const queued = () => [...t.jobRows().values()].filter((x) => x.kind === 'test.nightly');
    expect(queued().map((x) => x.dueAt)).toEqual(['2026-06-02T00:00:00.000Z']);
    clock.set('2026-06-02T00:00:01.000Z');
    t.worker.nudge();
    await until(() => ran.length === 1);
    await until(() => queued().length === 2);
    expect(
      queued()
        .map((x: { dueAt: string }) => x.dueAt)
        .sort(),
    ).toEqual(['2026-06-02T00:00:00.000Z', '2026-06-03T00:00:00.000Z']);
  });
});
