import type { Page, PageRequest } from '../common/paging.js';
import type { EnrolmentSnapshot, StatusChange } from './enrolment.js';
import type { EnrolmentStatus } from './enrolment-status.js';

export interface EnrolmentFilter {
  learnerId?: string;
  programmeCode?: string;
  status?: EnrolmentStatus;
  /** Inclusive bounds on `startDate`, YYYY-MM-DD. */
  startFrom?: string;
  startTo?: string;
  /** Inclusive bounds on `updatedAt`, ISO 8601: what changed in a window (incremental sync). */
  updatedFrom?: string;
  updatedTo?: string;
}

/** What a learner list shows and sorts of an enrolment. */
export interface EnrolmentSummary {
  id: string;
  learnerId: string;
  programmeCode: string;
  status: EnrolmentStatus;
  startDate: string;
}

/**
 * What `EnrolmentRepository.atRisk` looks for on `today` (YYYY-MM-DD): open enrolments whose expected end date has
 * passed, and open enrolments started on or before `since` with no assessment dated on or after `since` that are
 * not among `active` (enrolments with other activity since then, such as evidence uploaded). The first `limit` are
 * listed, overdue ones first (earliest expected end first), then idle ones (earliest start first), then by id.
 */
export interface AtRiskQuery {
  today: string;
  since: string;
  active: readonly string[];
  limit: number;
}

/** An enrolment at risk: why, and the date of its last assessment (null when it has none). */
export interface EnrolmentAtRisk {
  enrolment: EnrolmentSnapshot;
  reason: 'overdue' | 'idle';
  lastAssessed: string | null;
}

/** Port: enrolments and their status history. */
export interface EnrolmentRepository {
  /** Throws conflict `open_enrolment_exists` when the learner already has an open enrolment in the programme. */
  insert(e: EnrolmentSnapshot): Promise<void>;
  /**
   * Stores a status move. Throws conflict `concurrent_status_change` when the stored status is no longer
   * `expectedStatus` (someone else moved it first), not_found when absent.
   */
  updateStatus(e: EnrolmentSnapshot, expectedStatus: EnrolmentStatus): Promise<void>;
  findById(tenantId: string, id: string): Promise<EnrolmentSnapshot | null>;
  /** Ordered by id. */
  list(tenantId: string, filter: EnrolmentFilter, page: PageRequest): Promise<Page<EnrolmentSnapshot>>;
  /**
   * Every enrolment matching `filter`, optionally only those of
   * `learnerIds`, unpaged and by id: a learner list's filters and sorts by programme, status and start date.
   */
  summaries(tenantId: string, filter: EnrolmentFilter, learnerIds?: readonly string[]): Promise<EnrolmentSummary[]>;
  /**
   * Every enrolment of `learnerIds` matching `filter`, unpaged and by id, in one read: a regulator file reads a
   * page of learners' enrolments at once instead of one list per learner.
   */
  ofLearners(tenantId: string, filter: EnrolmentFilter, learnerIds: readonly string[]): Promise<EnrolmentSnapshot[]>;
  /** The learner's open enrolments, most recent first (start date, then creation). */
  openForLearner(tenantId: string, learnerId: string): Promise<EnrolmentSnapshot[]>;
  /**
   * Open enrolments of every tenant whose expected end date is `date` (YYYY-MM-DD), by id, after `afterId`, at most
   * `limit` (the deadline reminders page through them).
   */
  openDueOn(date: string, afterId: string | null, limit: number): Promise<EnrolmentSnapshot[]>;
  countForProgramme(tenantId: string, programmeId: string): Promise<number>;
  /** How many of the tenant's enrolments each programme has in each status, in one read (the overview's chart). */
  statusCounts(tenantId: string): Promise<{ programmeId: string; status: EnrolmentStatus; count: number }[]>;
  /** Open enrolments at risk (`AtRiskQuery`): how many, of how many learners, and the first `limit`. */
  atRisk(tenantId: string, q: AtRiskQuery): Promise<{ enrolments: number; learners: number; items: EnrolmentAtRisk[] }>;
  /**
   * Open enrolments whose expected end date is in [from, to] (YYYY-MM-DD, inclusive): how many, and the first
   * `limit` by expected end date, then id.
   */
  dueBetween(
    tenantId: string,
    q: { from: string; to: string; limit: number },
  ): Promise<{ total: number; items: EnrolmentSnapshot[] }>;
  addStatusChange(c: StatusChange): Promise<void>;
  /** Oldest first. */
  history(tenantId: string, enrolmentId: string): Promise<StatusChange[]>;
}
