import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Container } from 'inversify';
import { T, W, resolve, useCasesOf } from '@fundi/adapters';
import type { JobDefinition } from '@fundi/application';
import { Worker } from '@fundi/worker';
import type { WorkerConfig } from './config.js';
import { jobsOf, reactionsOf, uowOf, webhookCapability } from './capabilities/index.js';
import { capabilitiesOf } from './compose.js';

/** A lease owner name that tells operators which process holds what. */
export function workerOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/**
 * The worker over the container's use cases and ports; the same for `npm run worker` and the embedded one.
 * `extraJobs` adds job definitions beside the capabilities' (an embedding program's own jobs).
 */
// biome-ignore lint/suspicious/noExplicitAny: definitions of different payload types run side by side.
export function workerFor(
  c: Container,
  settings: WorkerConfig,
  owner = workerOwner(),
  extraJobs: JobDefinition<any>[] = [],
): Worker {
  const u = useCasesOf(c, webhookCapability);
  return new Worker(
    {
      uow: uowOf(c),
      clock: resolve(c, T.Clock),
      logger: resolve(c, T.Logger),
      lease: resolve(c, W.WorkerLease),
      dispatchOutbox: u.dispatchOutbox.with(reactionsOf(c, capabilitiesOf(c))),
      claimDeliveries: u.claimDeliveries,
      recordOutcomes: u.recordOutcomes,
      transport: resolve(c, W.Transport),
      workSignal: resolve(c, W.WorkSignal),
      jobs: [...jobsOf(c, capabilitiesOf(c)), ...extraJobs],
    },
    { owner, ...settings },
  );
}
