import type { LearnerSnapshot } from '@fundi/domain/learners';
import type { LogbookEntrySnapshot } from '@fundi/domain/logbooks';
import type { AssessmentSnapshot, EnrolmentSnapshot } from '@fundi/domain/training';
import type { EvidenceSnapshot } from '@fundi/domain/evidence';
import type { AuditView } from '../audit/audit-view.js';

type Cell = string | number | boolean | null;
export type Column<R> = (row: R) => Cell;

/** A learner row; `enrolments` is filled only when a chosen column needs it. */
export interface LearnerRow {
  l: LearnerSnapshot;
  enrolments: EnrolmentSnapshot[] | null;
}
export interface EnrolmentRow {
  e: EnrolmentSnapshot;
  l: LearnerSnapshot | null;
}
export interface AssessmentRow {
  a: AssessmentSnapshot;
  l: LearnerSnapshot | null;
}
export interface EvidenceRow {
  ev: EvidenceSnapshot;
  l: LearnerSnapshot | null;
}

const person = <R extends { l: LearnerSnapshot | null }>() => ({
  learner_id: (r: R) => r.l?.id ?? null,
  id_number: (r: R) => r.l?.idNumber ?? null,
  alternate_id: (r: R) => r.l?.alternateId ?? null,
  alternate_id_type: (r: R) => r.l?.alternateIdType ?? null,
  first_name: (r: R) => r.l?.firstName ?? null,
  last_name: (r: R) => r.l?.lastName ?? null,
});

const address = (a: LearnerSnapshot['homeAddress']) =>
  a ? [a.line1, a.line2, a.line3, a.postalCode].filter((x) => x).join(', ') : null;

/** Every learner column, in default order; `programme` and `status` list the learner's enrolments (`; `). */
export const LEARNER_COLUMNS: Record<string, Column<LearnerRow>> = {
  id: (r) => r.l.id,
  id_number: (r) => r.l.idNumber,
  alternate_id: (r) => r.l.alternateId,
  alternate_id_type: (r) => r.l.alternateIdType,
  first_name: (r) => r.l.firstName,
  middle_name: (r) => r.l.middleName,
  last_name: (r) => r.l.lastName,
  date_of_birth: (r) => r.l.dateOfBirth,
  gender: (r) => r.l.gender,
  citizenship: (r) => r.l.citizenship,
  email: (r) => r.l.email,
  mobile: (r) => r.l.mobile,
  phone: (r) => r.l.phone,
  title: (r) => r.l.title,
  equity_code: (r) => r.l.equityCode,
  nationality_code: (r) => r.l.nationalityCode,
  home_language_code: (r) => r.l.homeLanguageCode,
  citizen_resident_status_code: (r) => r.l.citizenResidentStatusCode,
  socioeconomic_status_code: (r) => r.l.socioeconomicStatusCode,
  disability_status_code: (r) => r.l.disabilityStatusCode,
  disability_rating: (r) => r.l.disabilityRating,
  immigrant_status: (r) => r.l.immigrantStatus,
  home_address: (r) => address(r.l.homeAddress),
  postal_address: (r) => address(r.l.postalAddress),
  province_code: (r) => r.l.provinceCode,
  statssa_area_code: (r) => r.l.statssaAreaCode,
  popi_act_agree: (r) => r.l.popiActAgree,
  popi_act_date: (r) => r.l.popiActDate,
  employer: (r) => r.l.employer,
  employee_ref: (r) => r.l.employeeRef,
  department: (r) => r.l.department,
  job_title: (r) => r.l.jobTitle,
  created_at: (r) => r.l.createdAt,
  updated_at: (r) => r.l.updatedAt,
  programme: (r) => (r.enrolments ?? []).map((e) => e.programmeCode).join('; ') || null,
  status: (r) => (r.enrolments ?? []).map((e) => e.status).join('; ') || null,
};
/** Columns that need the learner's enrolments read (left out of the default list: a query per learner). */
export const LEARNER_ENROLMENT_COLUMNS = ['programme', 'status'];

export const ENROLMENT_COLUMNS: Record<string, Column<EnrolmentRow>> = {
  id: (r) => r.e.id,
  ...person<EnrolmentRow>(),
  programme: (r) => r.e.programmeCode,
  status: (r) => r.e.status,
  start_date: (r) => r.e.startDate,
  expected_end_date: (r) => r.e.expectedEndDate,
  achievement_date: (r) => r.e.achievementDate,
  funding_source: (r) => r.e.fundingSource,
  created_at: (r) => r.e.createdAt,
  updated_at: (r) => r.e.updatedAt,
};

export const ASSESSMENT_COLUMNS: Record<string, Column<AssessmentRow>> = {
  id: (r) => r.a.id,
  ...person<AssessmentRow>(),
  enrolment_id: (r) => r.a.enrolmentId,
  programme: (r) => r.a.programmeCode,
  module: (r) => r.a.moduleCode,
  assessment_type: (r) => r.a.assessmentType,
  outcome: (r) => r.a.outcome,
  assessment_date: (r) => r.a.assessmentDate,
  assessor: (r) => r.a.assessorId,
  moderation_decision: (r) => r.a.moderation?.decision ?? null,
  moderated_at: (r) => r.a.moderation?.moderatedAt ?? null,
  created_at: (r) => r.a.createdAt,
};

export const EVIDENCE_COLUMNS: Record<string, Column<EvidenceRow>> = {
  id: (r) => r.ev.id,
  ...person<EvidenceRow>(),
  enrolment_id: (r) => r.ev.enrolmentId,
  module: (r) => r.ev.moduleId,
  evidence_type: (r) => r.ev.evidenceType,
  version: (r) => r.ev.current.version,
  filename: (r) => r.ev.current.filename,
  content_type: (r) => r.ev.current.contentType,
  size: (r) => r.ev.current.size,
  status: (r) => r.ev.current.status,
  reviewed_at: (r) => r.ev.current.reviewedAt,
  created_at: (r) => r.ev.createdAt,
  updated_at: (r) => r.ev.updatedAt,
};

/** A logbook entry with its learner (null once erased). */
export interface LogbookRow {
  e: LogbookEntrySnapshot;
  l: LearnerSnapshot | null;
}

/** The full export's `logbook-entries.csv` (docs/api.md, "Logbooks"): each entry and its sign-off. */
export const LOGBOOK_COLUMNS: Record<string, Column<LogbookRow>> = {
  id: (r) => r.e.id,
  ...person<LogbookRow>(),
  enrolment_id: (r) => r.e.enrolmentId,
  module: (r) => r.e.moduleCode,
  date: (r) => r.e.date,
  hours: (r) => r.e.hours,
  activity: (r) => r.e.activity,
  workplace: (r) => r.e.workplace,
  supervisor_name: (r) => r.e.supervisor.name,
  supervisor_email: (r) => r.e.supervisor.email,
  supervisor_mobile: (r) => r.e.supervisor.mobile,
  status: (r) => r.e.status,
  submitted_at: (r) => r.e.submittedAt,
  submission_id: (r) => r.e.submissionId,
  signed_at: (r) => r.e.signedAt,
  sign_off_outcome: (r) => r.e.signOff?.outcome ?? null,
  sign_off_by: (r) => r.e.signOff?.by ?? null,
  sign_off_at: (r) => r.e.signOff?.at ?? null,
  sign_off_ip: (r) => r.e.signOff?.ip ?? null,
  sign_off_hash: (r) => r.e.signOff?.hash ?? null,
  sign_off_comment: (r) => r.e.signOff?.comment ?? null,
};

/** The audit trail as `GET /audit` shows it (changes and details as JSON text). */
export const AUDIT_COLUMNS: Record<string, Column<AuditView>> = {
  id: (r) => r.id,
  at: (r) => r.at,
  actor_type: (r) => r.actor.type,
  actor_id: (r) => r.actor.id,
  actor_name: (r) => r.actor.name,
  via: (r) => r.origin.via,
  ip: (r) => r.origin.ip,
  action: (r) => r.action,
  entity_type: (r) => r.entityType,
  entity_id: (r) => r.entityId,
  learner_id: (r) => r.learnerId,
  changes: (r) => JSON.stringify(r.changes),
  details: (r) => JSON.stringify(r.details),
};

export const CSV_COLUMNS = {
  learners: LEARNER_COLUMNS,
  enrolments: ENROLMENT_COLUMNS,
  assessments: ASSESSMENT_COLUMNS,
  evidence: EVIDENCE_COLUMNS,
  audit: AUDIT_COLUMNS,
} as const;
export type CsvType = keyof typeof CSV_COLUMNS;

/** The default columns of a type: all but those that cost a query per row. */
export function defaultColumns(type: CsvType): string[] {
  return Object.keys(CSV_COLUMNS[type]).filter((c) => type !== 'learners' || !LEARNER_ENROLMENT_COLUMNS.includes(c));
}
