import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '@fundi/domain';
import { nextTurn } from '../common/next-turn.js';
import { jobType } from '../jobs/job-definition.js';
import type { RetentionPolicy, RetentionTask } from './retention-policy.js';

/** The one recurring job that prunes every kind (hourly, and once when a worker starts). */
export const RUN_RETENTION = jobType<Record<string, never>>('retention.prune', 'long', {
  maxAttempts: 3,
  priority: 'background',
});

const DAY = 86_400_000;
/** The smallest batch: below it a statement's fixed cost dominates. */
const MIN_BATCH = 100;

export interface RetentionDeps {
  tasks: readonly RetentionTask[];
  policy: RetentionPolicy;
  clock: Clock;
  /** The most rows per statement (each its own short transaction). */
  batch: number;
  /**
   * Where statements run on the thread that serves HTTP (SQLite): how long one batch may take. Batches over it are
   * halved (down to 100 rows), quicker ones doubled back up to `batch`, and the job rests as long as each batch took.
   * Absent: batches of `batch` with a turn of the event loop between them.
   */
  sliceMs?: number;
  /** Wall time in ms, for the batches' durations (tests pass their own). */
  now?: () => number;
}

/**
 * Prunes every kind past its retention, in batches, each one statement in its own short transaction, so no
 * transaction is long, with at least one turn of the event loop between batches. With `sliceMs` (SQLite, where a
 * batch is a pause of the API that shares the process) batches shrink until one takes at most that long, and the job
 * rests as long as each batch took, so the API keeps at least half the time. Stops between batches when `signal`
 * fires (the job runs again). Returns the rows pruned per step.
 */
export class RunRetention {
  /** Throws at once (the worker's start) when a task prunes a kind no capability declared a period for. */
  constructor(private readonly d: RetentionDeps) {
    for (const task of d.tasks)
      if (task.kind !== 'temporaryFiles' && d.policy[task.kind] === undefined)
        throw new Error(`No retention period is declared for "${task.kind}"`);
  }

  async execute(signal?: AbortSignal): Promise<Record<string, number>> {
    const now = this.d.clock.now().getTime();
    const wall = this.d.now ?? (() => performance.now());
    const { sliceMs } = this.d;
    const pruned: Record<string, number> = {};
    let size = this.d.batch;
    const smallest = Math.min(MIN_BATCH, this.d.batch);
    for (const task of this.d.tasks) {
      const before = new Date(
        now - (task.kind === 'temporaryFiles' ? task.keepMs : (this.d.policy[task.kind] ?? 0) * DAY),
      );
      const name = task.step ? `${task.kind}.${task.step}` : task.kind;
      pruned[name] = 0;
      for (;;) {
        if (signal?.aborted) return pruned;
        const started = wall();
        const n = await task.prune(before, size);
        const took = wall() - started;
        pruned[name] += n;
        await (sliceMs !== undefined && took >= 1 ? sleep(took) : nextTurn());
        if (n < size) break;
        if (sliceMs === undefined) continue;
        if (took > sliceMs) size = Math.max(smallest, Math.floor(size / 2));
        else if (took < sliceMs / 2) size = Math.min(this.d.batch, size * 2);
      }
    }
    return pruned;
  }
}
