import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Container } from 'inversify';
import { T, W, resolve } from '@fundi/adapters';
import { REPLAY_SINCE_JOB } from '@fundi/application';
import { Worker } from '@fundi/worker';
import type { WorkerConfig } from './config.js';

/** A lease owner name that tells operators which process holds what. */
export function workerOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/** The worker over the container's use cases and ports; the same for `npm run worker` and the embedded one. */
export function workerFor(c: Container, settings: WorkerConfig, owner = workerOwner()): Worker {
  const core = resolve(c, T.CoreDeps);
  const u = resolve(c, W.UseCases);
  return new Worker({
    uow: core.uow,
    clock: core.clock,
    logger: resolve(c, T.Logger),
    lease: resolve(c, W.WorkerLease),
    dispatchOutbox: u.dispatchOutbox,
    claimDeliveries: u.claimDeliveries,
    recordOutcomes: u.recordOutcomes,
    transport: resolve(c, W.Transport),
    handlers: {
      [REPLAY_SINCE_JOB]: (payload) => u.replayEventsSince.execute(payload),
    },
  }, { owner, ...settings });
}
