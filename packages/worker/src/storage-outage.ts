import { isStorageUnavailable } from '@fundi/domain';
import type { WorkerLogger } from './worker-ports.js';

/** The longest wait of a loop that keeps failing before it tries again. */
export const MAX_BACKOFF_MS = 5_000;

/** The wait after `failures` failures in a row: the poll interval doubled each time, up to `MAX_BACKOFF_MS`. */
export function backoffAfter(failures: number, pollMs: number): number {
  return Math.min(pollMs * 2 ** Math.min(failures, 20), Math.max(MAX_BACKOFF_MS, pollMs));
}

/**
 * The worker's one record of the database being unreachable (docs/architecture.md, "When the database goes away").
 * Every loop, heartbeat and outcome write reports its storage failures here: the outage is logged when it begins
 * and when it ends, once each, not once per poll; other errors are logged as each caller says.
 */
export class StorageOutage {
  private since: number | null = null;
  private failures = 0;
  private readonly recovered: (() => void)[] = [];

  constructor(
    private readonly logger: WorkerLogger,
    private readonly now: () => number = Date.now,
  ) {}

  get down(): boolean {
    return this.since !== null;
  }

  /** `e` ended an operation: a storage outage is noted (logged if it is new); anything else goes to `otherwise`. */
  failed(e: unknown, where: string, otherwise: () => void): void {
    if (!isStorageUnavailable(e)) return otherwise();
    this.failures++;
    if (this.since !== null) return;
    this.since = this.now();
    this.logger.warn({ where, err: e.cause ?? e }, 'database unreachable: the worker waits and tries again');
  }

  /** An operation reached the database: an outage, if there was one, is over. */
  reached(): void {
    if (this.since === null) return;
    this.logger.info(
      { downMs: this.now() - this.since, failedOperations: this.failures },
      'database reachable again: the worker resumes',
    );
    this.since = null;
    this.failures = 0;
    for (const fn of this.recovered) fn();
  }

  /** Calls `fn` each time an outage ends (after its log line). */
  onRecovery(fn: () => void): void {
    this.recovered.push(fn);
  }
}
