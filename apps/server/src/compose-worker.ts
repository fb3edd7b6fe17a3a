import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Container } from 'inversify';
import { T, resolve, useCasesOf } from '@fundi/adapters';
import { W } from '@fundi/adapters/webhooks';
import { RUN_RETENTION, RunRetention, type JobDefinition } from '@fundi/application';
import { Worker } from '@fundi/worker';
import type { RetentionSettings, WorkerConfig } from './config.js';
import { jobsOf, reactionsOf, reposOf, retentionOf, uowOf, webhookCapability } from './capabilities/index.js';
import { retentionPolicyOf } from './capabilities/declared.js';
import { capabilitiesOf } from './compose.js';

/** A lease owner name that tells operators which process holds what. */
export function workerOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/**
 * The worker over the container's use cases and ports; the same for `npm run worker` and the embedded one.
 * `extraJobs` adds job definitions beside the capabilities' (an embedding program's own jobs).
 */
export function workerFor(
  c: Container,
  settings: WorkerConfig,
  owner = workerOwner(),
  extraJobs: readonly JobDefinition<unknown>[] = [],
): Worker {
  const u = useCasesOf(c, webhookCapability);
  return new Worker(
    {
      uow: uowOf(c),
      queue: reposOf(c).jobs,
      clock: resolve(c, T.Clock),
      logger: resolve(c, T.Logger),
      lease: resolve(c, W.WorkerLease),
      dispatchOutbox: u.dispatchOutbox.with(reactionsOf(c, capabilitiesOf(c))),
      claimDeliveries: u.claimDeliveries,
      recordOutcomes: u.recordOutcomes,
      transport: resolve(c, W.Transport),
      workSignal: resolve(c, W.WorkSignal),
      jobs: [...jobsOf(c, capabilitiesOf(c)), retentionJob(c, settings), ...extraJobs],
    },
    { owner, ...settings },
  );
}

const HOUR = 3_600_000;

/**
 * The retention prune over every capability's tasks (docs/architecture.md, "Retention"). Where the database runs
 * statements on this process's thread (SQLite), batches are paced to about 20 ms each, with as long a rest after.
 */
export function retentionFor(c: Container, settings?: Partial<RetentionSettings>): RunRetention {
  const caps = capabilitiesOf(c);
  return new RunRetention({
    tasks: retentionOf(c, caps),
    // Without settings, each kind's period as its capability declares it.
    policy: settings?.policy ?? retentionPolicyOf(caps, (p) => p.days),
    clock: resolve(c, T.Clock),
    batch: settings?.batch ?? 2000,
    // The in-memory store (tests) runs on this thread too.
    ...(!c.isBound(T.SqlDb) || resolve(c, T.SqlDb).dialect.runsOnCallerThread ? { sliceMs: 20 } : {}),
  });
}

/**
 * The one recurring job that prunes every kind past its retention (docs/architecture.md, "Retention"): hourly, and
 * once when a worker starts (so what a crash left is swept then). Background priority: it waits while an import or
 * an export runs.
 */
function retentionJob(c: Container, settings: WorkerConfig): JobDefinition<Record<string, never>> {
  const logger = resolve(c, T.Logger);
  const retention = retentionFor(c, settings.retention);
  return {
    ...RUN_RETENTION,
    parse: () => ({}),
    async run(_p, ctx) {
      const started = Date.now();
      const pruned = await retention.execute(ctx.signal);
      const rows = Object.values(pruned).reduce((a, b) => a + b, 0);
      if (rows > 0) logger.info({ pruned, ms: Date.now() - started }, 'retention pruned');
    },
    recurring: {
      next: (after: Date) => new Date(Math.floor(after.getTime() / HOUR) * HOUR + HOUR),
      payload: {},
      onStart: true,
    },
  };
}
