import type { Page, PageRequest } from '../common/paging.js';
import type { AssessmentSnapshot, AssessmentType, ModerationSnapshot, Outcome } from './assessment.js';
import type { EnrolmentSnapshot, StatusChange } from './enrolment.js';
import type { EnrolmentStatus } from './enrolment-status.js';
import type { ModerationSampleSnapshot } from './moderation-sample.js';
import type { ProgrammeSnapshot, ProgrammeType } from './programme.js';

/** Port: the programme catalogue. Scoped by tenant; another tenant's programme is "not found". */
export interface ProgrammeRepository {
  /** Throws conflict `duplicate_programme_code` when the tenant already has the code. */
  insert(p: ProgrammeSnapshot): Promise<void>;
  /** Replaces the stored programme (the code never changes). Throws not_found if absent. */
  update(p: ProgrammeSnapshot): Promise<void>;
  /** Removes it; false when absent. Callers check first that no enrolment uses it. */
  delete(tenantId: string, id: string): Promise<boolean>;
  findById(tenantId: string, id: string): Promise<ProgrammeSnapshot | null>;
  findByCode(tenantId: string, code: string): Promise<ProgrammeSnapshot | null>;
  /** The programmes among `ids` that exist, in any order. */
  findByIds(tenantId: string, ids: readonly string[]): Promise<ProgrammeSnapshot[]>;
  /** Ordered by id (creation order). */
  list(
    tenantId: string,
    filter: { status?: 'active' | 'retired'; type?: ProgrammeType },
    page: PageRequest,
  ): Promise<Page<ProgrammeSnapshot>>;
}

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

export interface AssessmentFilter {
  learnerId?: string;
  enrolmentId?: string;
  moduleCode?: string;
  /** The recorded outcome. */
  outcome?: Outcome;
  assessmentType?: AssessmentType;
  /** Inclusive bounds on `assessmentDate`, YYYY-MM-DD. */
  from?: string;
  to?: string;
  /**
   * Inclusive bounds, ISO 8601, on when the assessment last changed: its moderation's time when moderated, else
   * its creation (incremental sync; `Assessment.updatedAt`).
   */
  updatedFrom?: string;
  updatedTo?: string;
}

/** Port: assessments and their moderation. Every read returns the assessment with its moderation (or null). */
export interface AssessmentRepository {
  insert(a: AssessmentSnapshot): Promise<void>;
  findById(tenantId: string, id: string): Promise<AssessmentSnapshot | null>;
  /** The tenant's assessments among `ids` (unknown ids left out), in no particular order: one read for a list. */
  findByIds(tenantId: string, ids: readonly string[]): Promise<AssessmentSnapshot[]>;
  /** Ordered by id. */
  list(tenantId: string, filter: AssessmentFilter, page: PageRequest): Promise<Page<AssessmentSnapshot>>;
  /** Summative assessments of the given enrolments, ordered by id. */
  summativeForEnrolments(tenantId: string, enrolmentIds: readonly string[]): Promise<AssessmentSnapshot[]>;
  /** Every assessment (any type) of the given enrolments, ordered by id, in one read. */
  ofEnrolments(tenantId: string, enrolmentIds: readonly string[]): Promise<AssessmentSnapshot[]>;
  /** Summative assessments of a programme with an assessment date in [from, to] (either bound optional), by id. */
  summativeForProgramme(
    tenantId: string,
    programmeId: string,
    range: { from: string | null; to: string | null },
  ): Promise<AssessmentSnapshot[]>;
  /** The distinct module codes of a programme that have any assessment. */
  assessedModules(tenantId: string, programmeId: string): Promise<string[]>;
  /** Throws conflict `already_moderated` when the assessment has a moderation. */
  addModeration(m: ModerationSnapshot): Promise<void>;
}

/** Port: the moderation samples drawn and recorded. Scoped by tenant; another tenant's sample is "not found". */
export interface ModerationSampleRepository {
  /** Stores a new sample (ids are unique; a sample never changes once stored). */
  insert(s: ModerationSampleSnapshot): Promise<void>;
  findById(tenantId: string, id: string): Promise<ModerationSampleSnapshot | null>;
  /** Ordered by id (drawing order), optionally only a programme's. */
  list(tenantId: string, filter: { programmeId?: string }, page: PageRequest): Promise<Page<ModerationSampleSnapshot>>;
}

/** The training capability's repositories (programmes, enrolments, assessments with moderation, samples). */
export interface TrainingRepos {
  programmes: ProgrammeRepository;
  enrolments: EnrolmentRepository;
  assessments: AssessmentRepository;
  moderationSamples: ModerationSampleRepository;
}
