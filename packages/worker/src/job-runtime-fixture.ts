import { enqueueJob, type JobDefinition } from '@fundi/application';
import type { Clock } from '@fundi/domain';
import { memoryStorage, type JobTables } from '@fundi/memory';
import { platformMemory } from '@fundi/memory/platform';
import { webhookMemory } from '@fundi/memory/webhooks';
import { FixedClock } from '@fundi/testing';
import { DomainError } from '@fundi/domain';
import { afterEach } from 'vitest';
import { Worker } from './worker.js';
import type { WorkerDeps } from './worker-ports.js';

/** Shared by the job runtime's test files: a worker over the in-memory fakes, and waiting helpers. */

export const quiet = { info() {}, warn() {}, error() {} };
export const until = async (check: () => boolean | Promise<boolean>, ms = 3000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((ok) => setTimeout(ok, 5));
  }
};

/** A worker over the in-memory fakes with the given job definitions; webhook loops have nothing to do. */
export function aWorker<C extends Clock = FixedClock>(
  jobs: JobDefinition<unknown>[],
  o: {
    leaseMs?: number;
    /** The jobs' clock (default a `FixedClock`). */
    clock?: C;
    slots?: { short: number; long: number };
    logger?: WorkerDeps['logger'];
    /** While true, every unit of work the worker runs fails (the database went away). */
    down?: () => boolean;
    backgroundWaitMs?: number;
  } = {},
) {
  const mem = memoryStorage([platformMemory, webhookMemory]);
  const clock = (o.clock ?? new FixedClock()) as C;
  const down = o.down ?? (() => false);
  // What the SQL adapters raise when the database cannot be reached.
  const gone = () => DomainError.storageUnavailable(new Error('database gone'));
  const whenUp = <T>(f: () => Promise<T>) => (down() ? Promise.reject(gone()) : f());
  const queue = mem.repositories().jobs;
  const deps: WorkerDeps = {
    uow: { run: (fn) => whenUp(() => mem.uow.run(fn)) },
    queue: {
      claimDue: (c) => whenUp(() => queue.claimDue(c)),
      heartbeat: (...a) => whenUp(() => queue.heartbeat(...a)),
      finish: (...a) => whenUp(() => queue.finish(...a)),
      retry: (...a) => whenUp(() => queue.retry(...a)),
    },
    clock,
    logger: o.logger ?? quiet,
    lease: null,
    jobs,
    dispatchOutbox: {
      execute: async () => {
        if (down()) throw gone();
        return { taken: 0, tasks: [] };
      },
    },
    claimDeliveries: { execute: async () => [] },
    recordOutcomes: { execute: async () => {} },
    transport: { send: async () => ({ statusCode: 200, latencyMs: 1, error: null, responseExcerpt: null }) },
  };
  const worker = new Worker(deps, {
    owner: 'w-test',
    leaseMs: o.leaseMs ?? 5000,
    pollMs: 10,
    concurrency: 4,
    graceMs: 500,
    jobSlots: o.slots,
    backgroundWaitMs: o.backgroundWaitMs,
  });
  const enqueue = <P>(def: JobDefinition<P>, payload: P, key?: string) =>
    mem.uow.run((tx) => enqueueJob(tx.jobs, def, payload, { now: clock.now(), key }));
  const job = (id: string) => mem.repositories().jobs.findById(id);
  /** The jobs table of the in-memory store, for tests that edit a row as another process would. */
  const jobRows = () => (mem.store.tables as JobTables).jobs;
  return { worker, deps, enqueue, job, jobRows, mem, clock };
}

export const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((ok) => (open = ok));
  return { open, opened };
};

/**
 * Workers started with the returned `start` are stopped after each test of the file that calls this (at its top
 * level, so the hook is registered there).
 */
export function stoppedAfterEach(): (w: Worker) => Promise<void> {
  let running: Worker[] = [];
  afterEach(async () => {
    await Promise.all(running.map((w) => w.stop()));
    running = [];
  });
  return async (w) => {
    running.push(w);
    await w.start();
  };
}
