import { enqueueJob, jobType, type JobDefinition } from '@fundi/application';
import { memoryStorage } from '@fundi/memory';
import { platformMemory } from '@fundi/memory/platform';
import { webhookMemory } from '@fundi/memory/webhooks';
import { FixedClock } from '@fundi/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Worker } from './worker.js';
import type { WorkKind, WorkSignal, WorkerDeps } from './worker-ports.js';

const until = async (check: () => boolean, ms = 2000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((ok) => setTimeout(ok, 5));
  }
};

/** A signal the test fires by hand; it records what the worker did with it. */
function aSignal(o: { fails?: boolean } = {}) {
  const events: string[] = [];
  let fire: ((what: WorkKind) => void) | null = null;
  const signal: WorkSignal = {
    async listen(onWork) {
      events.push('listen');
      if (o.fails) throw new Error('no connection');
      fire = onWork;
      return { close: async () => void events.push('close') };
    },
  };
  return { signal, events, fire: (what: WorkKind) => fire!(what) };
}

/** A worker over the in-memory fakes that polls once a minute, counting the dispatcher's ticks. */
function aWorker(signal: WorkSignal | null, jobs: JobDefinition<{ n: number }>[] = []) {
  const mem = memoryStorage([platformMemory, webhookMemory]);
  const clock = new FixedClock();
  const log: string[] = [];
  let dispatches = 0;
  const deps: WorkerDeps = {
    uow: mem.uow,
    queue: mem.repositories().jobs,
    clock,
    logger: { info() {}, warn: (_: object, msg: string) => void log.push(msg), error() {} },
    lease: null,
    jobs,
    workSignal: signal,
    dispatchOutbox: {
      execute: async () => {
        dispatches++;
        return { taken: 0, tasks: [] };
      },
    },
    claimDeliveries: { execute: async () => [] },
    recordOutcomes: { execute: async () => {} },
    transport: { send: async () => ({ statusCode: 200, latencyMs: 1, error: null, responseExcerpt: null }) },
  };
  const worker = new Worker(deps, { owner: 'w-signal', leaseMs: 5000, pollMs: 60_000, concurrency: 4, graceMs: 200 });
  const enqueue = <P>(def: JobDefinition<P>, payload: P) =>
    mem.uow.run((tx) => enqueueJob(tx.jobs, def, payload, { now: clock.now() }));
  return { worker, enqueue, log, dispatches: () => dispatches };
}

let running: Worker[] = [];
afterEach(async () => {
  await Promise.all(running.map((w) => w.stop()));
  running = [];
});

describe('the worker and its work signal', () => {
  it("'outbox' wakes the dispatcher and 'jobs' the job lanes, long before the next poll", async () => {
    const s = aSignal();
    const done: number[] = [];
    const job: JobDefinition<{ n: number }> = {
      ...jobType('test.signalled', 'short'),
      parse: (p) => p as { n: number },
      run: async (p) => void done.push(p.n),
    };
    const w = aWorker(s.signal, [job]);
    running.push(w.worker);
    await w.worker.start();
    expect(s.events).toEqual(['listen']);
    await until(() => w.dispatches() === 1);
    await new Promise((ok) => setTimeout(ok, 50));
    expect(w.dispatches()).toBe(1);

    s.fire('outbox');
    await until(() => w.dispatches() === 2);

    await w.enqueue(job, { n: 7 });
    await new Promise((ok) => setTimeout(ok, 50));
    expect(done).toEqual([]); // polling alone would take a minute
    s.fire('jobs');
    await until(() => done.length === 1);
    expect(done).toEqual([7]);
    expect(w.dispatches()).toBe(2); // 'jobs' leaves the dispatcher asleep
  });

  it('closes the listener first on stop, and ignores signals after it', async () => {
    const s = aSignal();
    const w = aWorker(s.signal);
    await w.worker.start();
    await until(() => w.dispatches() === 1);
    await w.worker.stop();
    expect(s.events).toEqual(['listen', 'close']);
    s.fire('outbox');
    await new Promise((ok) => setTimeout(ok, 30));
    expect(w.dispatches()).toBe(1);
  });

  it('starts and polls without it when listening fails, or when there is none', async () => {
    const s = aSignal({ fails: true });
    const w = aWorker(s.signal);
    running.push(w.worker);
    await w.worker.start();
    await until(() => w.dispatches() === 1);
    expect(w.log).toContain('work signal unavailable: the worker polls only');

    const none = aWorker(null);
    running.push(none.worker);
    await none.worker.start();
    await until(() => none.dispatches() === 1);
  });
});
