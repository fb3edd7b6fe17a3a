import type { Page, PageRequest } from '../common/paging.js';
import type { LogbookEntrySnapshot, LogbookStatus } from './logbook.js';

export interface LogbookFilter {
  learnerId?: string;
  moduleCode?: string;
  status?: LogbookStatus;
}

/** Port: logbook entries of every tenant, scoped by tenant. */
export interface LogbookEntryRepository {
  insert(e: LogbookEntrySnapshot): Promise<void>;
  /** Replaces the entry; not found when absent. */
  update(e: LogbookEntrySnapshot): Promise<void>;
  findById(tenantId: string, id: string): Promise<LogbookEntrySnapshot | null>;
  findByIds(tenantId: string, ids: readonly string[]): Promise<LogbookEntrySnapshot[]>;
  /** Ordered by id (creation order). */
  list(tenantId: string, filter: LogbookFilter, page: PageRequest): Promise<Page<LogbookEntrySnapshot>>;
  /** The entries last submitted in a sign-off request, by id. */
  listBySubmission(tenantId: string, submissionId: string): Promise<LogbookEntrySnapshot[]>;
  /** Every entry of a learner (progress, exports), by id. */
  listForLearner(tenantId: string, learnerId: string): Promise<LogbookEntrySnapshot[]>;
  delete(tenantId: string, id: string): Promise<void>;
  /**
   * Erasure: removes the personal text of the learner's entries (activity, workplace, supervisor, the sign-off's
   * name, address and comment) and keeps dates, hours, statuses and the hash for the regulator's counts.
   */
  eraseLearner(tenantId: string, learnerId: string): Promise<number>;
}

export interface LogbookRepos {
  logbookEntries: LogbookEntryRepository;
}
