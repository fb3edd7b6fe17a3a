import type { Page, PageRequest } from '../common/paging.js';
import type { EnrolmentStatus } from '../training/enrolment-status.js';
import type { LearnerSnapshot } from './learner.js';

/** Conditions on a learner's enrolments: a learner matches with one enrolment that meets every one given. */
export interface EnrolledFilter {
  programmeCode?: string;
  status?: EnrolmentStatus;
  /** Inclusive bounds on the enrolment's start date, YYYY-MM-DD. */
  startFrom?: string;
  startTo?: string;
}

export interface LearnerFilter {
  /** Words or a mobile number, read by `learnerSearch` (names in any order and case, email, ID prefix, employee reference). */
  search?: string;
  employeeRef?: string;
  /** Part of the employer's name, any case ("acme" finds "Acme Engineering"). */
  employer?: string;
  /** Only these learners; an empty list matches nobody. */
  ids?: readonly string[];
  /** Only learners with an enrolment meeting these conditions (the learner list's enrolment filters). */
  enrolled?: EnrolledFilter;
  /** Inclusive bounds on `createdAt`, ISO 8601. */
  createdFrom?: string;
  createdTo?: string;
  /** Inclusive bounds on `updatedAt`, ISO 8601: what changed in a window (incremental sync). */
  updatedFrom?: string;
  updatedTo?: string;
}

/**
 * A list's order besides the default (by id): by surname then first name, by ID number, or by an enrolment's
 * programme code, status or start date. A learner sorted by an enrolment field takes their first value of it in the
 * sort's direction, among the enrolments meeting `LearnerFilter.enrolled` (all theirs without it). Learners without
 * the field come last either way; ties by id.
 */
export interface LearnerOrder {
  by: 'name' | 'idNumber' | 'programme' | 'status' | 'start';
  descending: boolean;
}

/** Port: learners of every tenant. Every method is scoped by tenant; another tenant's learner is "not found". */
export interface LearnerRepository {
  /** Throws DomainError conflict `duplicate_id_number` or `duplicate_email` (email compared case-insensitively). */
  insert(learner: LearnerSnapshot): Promise<void>;
  /** `insert` for many learners in one go (imports); any conflict fails the whole call with insert's errors. */
  insertMany(learners: readonly LearnerSnapshot[]): Promise<void>;
  /** Replaces the stored learner; same conflicts as insert. Throws not_found if absent or erased. */
  update(learner: LearnerSnapshot): Promise<void>;
  /** `null` when absent, erased, or another tenant's. */
  findById(tenantId: string, id: string): Promise<LearnerSnapshot | null>;
  /** The tenant's live learners among `ids` (any order; absent, erased and other tenants' ids are left out). */
  findByIds(tenantId: string, ids: readonly string[]): Promise<LearnerSnapshot[]>;
  findByIdNumber(tenantId: string, idNumber: string): Promise<LearnerSnapshot | null>;
  findByEmail(tenantId: string, email: string): Promise<LearnerSnapshot | null>;
  findByEmployeeRef(tenantId: string, employeeRef: string): Promise<LearnerSnapshot | null>;
  /** Live learners of the tenant with this mobile number (E.164), at most `limit` of them, by id. */
  findByMobile(tenantId: string, mobile: string, limit: number): Promise<LearnerSnapshot[]>;
  /**
   * Bulk form of `findByIdNumber` / `findByEmail` for many values at once (imports): which of them live learners
   * of the tenant hold, each mapped to that learner's id. Emails are compared case-insensitively and returned
   * lower-cased. Values nobody holds are absent. `alternates` are alternative IDs as `<type>:<number>`.
   */
  findTaken(
    tenantId: string,
    idNumbers: readonly string[],
    emails: readonly string[],
    alternates?: readonly string[],
  ): Promise<{ idNumbers: Map<string, string>; emails: Map<string, string>; alternates: Map<string, string> }>;
  /**
   * Ordered by id (creation order), or by `order` (then id) for offset pages; a cursor page is always by id. Erased
   * learners are never listed.
   */
  list(
    tenantId: string,
    filter: LearnerFilter,
    page: PageRequest,
    order?: LearnerOrder,
  ): Promise<Page<LearnerSnapshot>>;
  /**
   * POPIA erasure: removes every personal field irreversibly, keeping only the id, tenant, year of birth,
   * gender and the timestamps, so anonymised facts still count. Returns false if there was nothing to erase.
   */
  erase(tenantId: string, id: string, at: string): Promise<boolean>;
}

/** The learners capability's repositories. */
export interface LearnerRepos {
  learners: LearnerRepository;
}
