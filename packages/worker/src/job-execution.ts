import type { JobDefinition } from '@fundi/application';
import { isStorageUnavailable, type JobSnapshot } from '@fundi/domain';
import { jobContext } from './job-context.js';
import type { JobRunnerDeps } from './job-runner-deps.js';
import { scheduleNext } from './recurring-jobs.js';
import { backoffAfter, type StorageOutage } from './storage-outage.js';

const backoffMs = (attempts: number) => Math.min(30_000 * 2 ** (attempts - 1), 3_600_000);
/** The first wait before a job is given back again while the database stays away (doubling up to `MAX_BACKOFF_MS`). */
const GIVE_BACK_FIRST_WAIT_MS = 100;

/**
 * Runs one claimed job to its recorded end: done, retried with backoff, failed for good (a payload it cannot
 * parse, or its last attempt), or given back when the database is away; then the next occurrence of a recurring
 * job is queued. A job stopped or whose lease was lost records nothing: it runs again from its last progress.
 * `ran` is called when a run succeeded and only its finish is left to write (the lane frees its slot then).
 */
export async function executeJob(
  deps: JobRunnerDeps,
  outage: StorageOutage,
  job: JobSnapshot,
  def: JobDefinition<unknown>,
  abort: AbortController,
  stopping: () => boolean,
  ran: () => void = () => {},
): Promise<void> {
  const { queue, owner, logger } = deps;
  let payload: unknown;
  try {
    payload = def.parse(job.payload);
  } catch (e) {
    return recordFailure(deps, job, `payload rejected: ${messageOf(e)}`, true);
  }
  try {
    await def.run(payload, jobContext(deps, job, abort));
    if (abort.signal.aborted) return;
    ran();
    await queue.finish(job.id, owner, deps.clock.now().toISOString(), null);
  } catch (e) {
    // Stopping or lease lost: the job is not ours to record; it runs again from its last progress.
    if (abort.signal.aborted) return;
    if (isStorageUnavailable(e)) return giveBack(deps, outage, job, abort, e, stopping);
    logger.warn({ jobId: job.id, kind: job.kind, attempts: job.attempts, error: messageOf(e) }, 'job failed');
    return recordFailure(deps, job, messageOf(e), job.attempts >= job.maxAttempts);
  }
  if (def.recurring)
    await scheduleNext(deps, def, new Date(job.dueAt)).catch((e) =>
      // The worker queues every recurring job again when it starts and when an outage ends.
      outage.failed(e, 'recurring jobs', () =>
        logger.error({ kind: job.kind, err: e }, 'could not schedule the next occurrence'),
      ),
    );
}

/** A failed attempt: retried after a backoff that doubles from 30 s (at most an hour), or failed for good when `final`. */
export async function recordFailure(
  deps: JobRunnerDeps,
  job: JobSnapshot,
  error: string,
  final: boolean,
): Promise<void> {
  const now = deps.clock.now();
  const { owner } = deps;
  await (final
    ? deps.queue.finish(job.id, owner, now.toISOString(), error)
    : deps.queue.retry(job.id, owner, new Date(now.getTime() + backoffMs(job.attempts)).toISOString(), error));
}

/**
 * The job failed because the database could not be reached, which is no failure of the job: it goes back to the
 * queue, due at once, never failed for good (the attempt stays counted, as claimed). While the database stays away,
 * giving it back is tried again with growing waits (the heartbeat keeps renewing the lease meanwhile), until it
 * works, the lease is lost or the worker stops; a worker that stops gives back its leases itself.
 */
export async function giveBack(
  deps: JobRunnerDeps,
  outage: StorageOutage,
  job: JobSnapshot,
  abort: AbortController,
  cause: unknown,
  stopping: () => boolean,
): Promise<void> {
  const error = `storage unavailable: ${messageOf((cause as { cause?: unknown }).cause ?? cause)}`;
  for (let failures = 1; !abort.signal.aborted && !stopping(); failures++) {
    try {
      const now = deps.clock.now().toISOString();
      await deps.queue.retry(job.id, deps.owner, now, error);
      outage.reached();
      return;
    } catch (e) {
      if (!isStorageUnavailable(e)) throw e;
      outage.failed(e, 'job give-back', () => {});
      await pause(backoffAfter(failures, GIVE_BACK_FIRST_WAIT_MS), abort.signal);
    }
  }
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((ok) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      ok();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** An error's message, or the thrown value as text. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
