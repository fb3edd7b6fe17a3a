import type { Page, PageRequest } from '../common/paging.js';
import type { HrSyncConfigSnapshot } from './hr-sync-config.js';

/** Port: one HR configuration per tenant. */
export interface HrSyncConfigRepository {
  find(tenantId: string): Promise<HrSyncConfigSnapshot | null>;
  /** The configuration of the tenant with this slug (Form B's path), or null. */
  findByTenantSlug(slug: string): Promise<HrSyncConfigSnapshot | null>;
  /** The configuration whose current or previous key has this hash (expiry is the caller's check), or null. */
  findByKeyHash(hash: string): Promise<HrSyncConfigSnapshot | null>;
  /** Inserts or replaces the tenant's configuration. */
  save(c: HrSyncConfigSnapshot): Promise<void>;
}

export type HrEventResult = 'processed' | 'failed' | 'duplicate';

/** What an inbound HR event did (docs/api.md, "HR sync"): the answer to it, and to each repeat of it. */
export type HrEventAnswer = {
  learnerId: string;
  enrolmentId?: string;
  created?: boolean;
  withdrawnEnrolmentIds?: string[];
};

/** One inbound call, kept for `GET /hr-sync/events`. */
export interface HrEventEntry {
  id: string;
  tenantId: string;
  /** `id:<the HR event id>` or `sha256:<hash of the body>`; unique per tenant among processed events. */
  eventKey: string;
  hrEventId: string | null;
  event: string;
  receivedAt: string;
  result: HrEventResult;
  /** The answer given (replayed for a duplicate), or null for a failure. */
  response: HrEventAnswer | null;
  error: { code: string; message: string; fields: string[] } | null;
  /** The learner the event concerned, when one was found or made. */
  learnerId: string | null;
  /** The event's `data` as received: personal data, removed when the learner is erased. */
  data: Record<string, unknown> | null;
  redacted: boolean;
}

/** Port: the inbound log. */
export interface HrEventLog {
  /**
   * Adds an entry. A `processed` entry whose `eventKey` is already processed for the tenant throws conflict
   * `hr_event_duplicate` (two deliveries of one event racing): the caller answers as the first time.
   */
  add(e: HrEventEntry): Promise<void>;
  /** The processed entry of `eventKey`, or null. */
  findProcessed(tenantId: string, eventKey: string): Promise<HrEventEntry | null>;
  /** Newest first. */
  list(tenantId: string, page: PageRequest): Promise<Page<HrEventEntry>>;
  /**
   * Erasure: removes the data and the event key (a body hash is derived from personal data) of every entry about
   * the learner; returns how many changed. A later copy of such an event is processed as new.
   */
  redactLearner(tenantId: string, learnerId: string): Promise<number>;
  /**
   * Retention: deletes entries received before `before`, among the `limit` oldest entries (ids are made from the
   * time of receipt, so id order is receipt order), in one statement; returns how many.
   */
  pruneBefore(before: string, limit: number): Promise<number>;
}

export interface HrSyncRepos {
  hrSyncConfigs: HrSyncConfigRepository;
  hrEvents: HrEventLog;
}
