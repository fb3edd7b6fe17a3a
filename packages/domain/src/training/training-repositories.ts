import type { Page, PageRequest } from '../common/paging.js';
import type { AssessmentSnapshot, AssessmentType, ModerationSnapshot, Outcome } from './assessment.js';
import type { EnrolmentRepository } from './enrolment-repository.js';
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
