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

export interface RetentionDeps {
  tasks: readonly RetentionTask[];
  policy: RetentionPolicy;
  clock: Clock;
  /** Rows per statement (each its own short transaction). */
  batch: number;
}

/**
 * Prunes every kind past its retention, in batches of `batch` rows, each batch one short transaction with a turn of
 * the event loop after it, so no transaction is long and the API served by the same process keeps answering. Stops
 * between batches when `signal` fires (the job runs again). Returns the rows pruned per step.
 */
export class RunRetention {
  constructor(private readonly d: RetentionDeps) {}

  async execute(signal?: AbortSignal): Promise<Record<string, number>> {
    const now = this.d.clock.now().getTime();
    const pruned: Record<string, number> = {};
    for (const task of this.d.tasks) {
      const before = new Date(now - (task.kind === 'temporaryFiles' ? task.keepMs : this.d.policy[task.kind] * DAY));
      const name = task.step ? `${task.kind}.${task.step}` : task.kind;
      pruned[name] = 0;
      for (;;) {
        if (signal?.aborted) return pruned;
        const n = await task.prune(before, this.d.batch);
        pruned[name] += n;
        await nextTurn();
        if (n < this.d.batch) break;
      }
    }
    return pruned;
  }
}
