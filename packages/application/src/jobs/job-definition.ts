import {
  newId,
  type JobLane,
  type JobPriority,
  type JobProgress,
  type JobQueue,
  type JobSnapshot,
  type NewJob,
} from '@fundi/domain';

export type { JobPriority };

/**
 * A kind of background job and the type of its payload (docs/architecture.md, "Background jobs"). Use cases
 * enqueue by type, so a payload of the wrong shape does not compile; the capability that runs it gives the
 * `JobDefinition` (how to parse and run it).
 */
export interface JobType<P> {
  readonly kind: string;
  readonly lane: JobLane;
  /** Attempts before the job is given up (default 10). */
  readonly maxAttempts?: number;
  /** How it shares a worker process with other jobs (default `normal`); see `JobPriority`. */
  readonly priority?: JobPriority;
  /** Type only: never set. */
  readonly payloadType?: P;
}

export function jobType<P>(
  kind: string,
  lane: JobLane,
  o: { maxAttempts?: number; priority?: JobPriority } = {},
): JobType<P> {
  return { kind, lane, ...o };
}

/** What a running job may use. */
export interface JobContext {
  /** 1 on the first run; a job that runs again after a crash or a failure sees 2, 3, ... */
  attempt: number;
  /** The progress last recorded, by this attempt or an earlier one: resume from it. */
  readonly progress: JobProgress | null;
  /** Records progress (readable through the job's record); throws when the worker lost the job's lease. */
  report(progress: JobProgress): Promise<void>;
  /**
   * Records progress through `jobs` of the caller's transaction, so a batch of work and the progress that says it
   * is done commit together (a job resumed after a crash then never repeats a committed batch).
   */
  reportIn(jobs: JobQueue, progress: JobProgress): Promise<void>;
  /** Fires on shutdown and when the lease is lost: stop at the next safe point (the job will run again). */
  signal: AbortSignal;
}

export interface JobDefinition<P> extends JobType<P> {
  /** Checks a stored payload; a payload that does not parse fails the job at once (retrying cannot help). */
  parse(payload: unknown): P;
  run(payload: P, ctx: JobContext): Promise<void>;
  /** At most this many jobs of this kind at once in one worker (default: the lane's slots). */
  concurrency?: number;
  /**
   * Recurring: the runtime enqueues the occurrence after `after` on start and after each run (one per time); with
   * `onStart`, a worker that starts also enqueues one due at once (a sweep after a crash or a deployment).
   */
  recurring?: { next(after: Date): Date; payload: P; onStart?: boolean };
}

/** Enqueues a job of `type`; with `key`, a second enqueue with the same key returns the first job, adding none. */
export function enqueueJob<P>(
  jobs: JobQueue,
  type: JobType<P>,
  payload: P,
  o: { now: Date; dueAt?: Date; key?: string },
): Promise<JobSnapshot> {
  return jobs.enqueue(newJob(type, payload, o));
}

/**
 * Enqueues one job of `type` per payload in one statement, each due at `now` with its key (a payload whose key
 * exists adds nothing, as with `enqueueJob`).
 */
export function enqueueJobs<P>(
  jobs: JobQueue,
  type: JobType<P>,
  each: readonly { payload: P; key: string }[],
  now: Date,
): Promise<void> {
  return jobs.enqueueMany(each.map((e) => newJob(type, e.payload, { now, key: e.key })));
}

function newJob<P>(type: JobType<P>, payload: P, o: { now: Date; dueAt?: Date; key?: string }): NewJob {
  return {
    id: newId('job'),
    kind: type.kind,
    lane: type.lane,
    priority: type.priority ?? 'normal',
    payload,
    dueAt: (o.dueAt ?? o.now).toISOString(),
    maxAttempts: type.maxAttempts ?? 10,
    idempotencyKey: o.key ?? null,
    createdAt: o.now.toISOString(),
  };
}
