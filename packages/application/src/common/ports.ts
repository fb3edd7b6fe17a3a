import type { AccessPolicy, Clock, SecretBox, SecretGenerator, UnitOfWork } from '@fundi/domain';
import type { RequestMeter } from '../tenants/request-meter.js';
import type { OfferedHooks } from './hooks.js';

export type { UnitOfWork } from '@fundi/domain';

/**
 * What most use cases need: reads outside a transaction, the unit of work for writes, and the clock. `R` names the
 * repositories the use case really uses (for example `LearnerRepos & PlatformRepos`), nothing more.
 */
export interface CoreDeps<R> {
  repos: R;
  uow: UnitOfWork<R>;
  clock: Clock;
}

export interface SecretDeps {
  secrets: SecretGenerator;
}

/** Every scope and what each role may do, derived from the capabilities' declarations at the composition root. */
export interface AccessDeps {
  access: AccessPolicy;
}

export interface RateWindow {
  seconds: number;
  limit: number;
}

export interface WindowCount {
  hits: number;
  /** Unix epoch seconds at which the window ends. */
  resetAt: number;
}

/**
 * Port: fixed-window request counters. `hit` counts one request against every window of `key` and returns the
 * counts including it, in the order of `windows`. Shared across processes where the adapter says so.
 */
export interface RateLimitStore {
  hit(key: string, windows: readonly RateWindow[], now: number): Promise<WindowCount[]>;
  /**
   * Stores whose windows outlive the process (rows in the database) remove up to `limit` windows that ended before
   * `now` (ms), and return how many; a store in memory forgets its own and has no such method.
   */
  pruneExpired?(now: number, limit: number): Promise<number>;
}

/** One answered request, as the access log records it: fixed fields, none of them personal data. */
export interface AccessLine {
  requestId: string;
  method: string;
  /** The path only: query strings may carry search terms (names, ID numbers). */
  path: string;
  status: number;
  ms: number;
  /** The API key's id, when a valid key was presented. */
  key: string | undefined;
}

/** Port: the access log, one line per request. */
export interface AccessLog {
  request(line: AccessLine): void;
}

/**
 * Everything a capability's use-case factory may take (docs/architecture.md, "Capabilities"): the core ports over
 * every repository `R`, the secret generator, and boxes that seal secrets at rest under the master key. Each use
 * case still names only what it needs in its own deps type.
 */
/** Port: storage upkeep that is not a repository's business. */
export interface StorageMaintenance {
  /**
   * Makes what erasures deleted or overwrote unrecoverable from the store's own files, as far as the store can
   * (docs/architecture.md, "Erasure on disk"). Slow on large stores: run it from a job, never in a request.
   */
  scrubAfterErasure(): Promise<void>;
  /**
   * Brings the query planner's statistics of `tables` up to date where they changed much since last measured
   * (docs/architecture.md, "Planner statistics"): cheap when nothing changed, so callers that grow a table fast
   * (an import's batches) may ask after every step.
   */
  refreshStatistics(tables: readonly string[]): Promise<void>;
}

export interface Ports<R> extends CoreDeps<R>, SecretDeps, AccessDeps {
  maintenance: StorageMaintenance;
  /** The event names subscribers may ask for: every capability's declared events (docs/api.md, "Events and webhooks"). */
  eventTypes: readonly string[];
  /** What capabilities offer each other through hooks (the learners' erasure steps). */
  hooks: OfferedHooks;
  /** Counts authenticated requests per key and day (docs/api.md, "Usage"). */
  meter: RequestMeter;
  /** AES-256-GCM under a key derived from the master key for `purpose` (one purpose per kind of secret). */
  secretBox(purpose: string): SecretBox;
}
