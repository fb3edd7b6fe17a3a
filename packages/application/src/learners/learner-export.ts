import type { LearnerRepos, LearnerSnapshot } from '@fundi/domain/learners';
import { ENROLMENT_STATUSES, type EnrolmentSnapshot, type TrainingRepos } from '@fundi/domain/training';
import { enrolmentRows } from '../enrolments/enrolment-export.js';
import { dayEnd, dayStart, pages } from '../exports/export-reading.js';
import { csvExportType, type Column, type ResolvedFilters } from '../exports/export-type.js';

/** A learner row; `enrolments` is filled only when a chosen column needs it. */
export interface LearnerRow {
  l: LearnerSnapshot;
  enrolments: EnrolmentSnapshot[] | null;
}

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

const createdIn = (f: ResolvedFilters) => ({
  createdFrom: dayStart(f.from),
  createdTo: dayEnd(f.to),
  ...(f.learnerIds ? { ids: f.learnerIds } : {}),
});

/**
 * Learners, one row each. Without enrolment filters: by creation date (`from`/`to`), only `learnerIds` when given. With `programmeId` or
 * `status`: the learners with a matching enrolment (by its start date), each once, with that enrolment.
 */
export async function* learnerRows(
  r: LearnerRepos & TrainingRepos,
  tenantId: string,
  f: ResolvedFilters,
  withEnrolments: boolean,
): AsyncGenerator<LearnerRow[]> {
  if (f.programmeCode || f.status) {
    const seen = new Set<string>();
    for await (const batch of enrolmentRows(r, tenantId, f)) {
      const rows: LearnerRow[] = [];
      for (const { e, l } of batch) {
        if (!l || seen.has(l.id)) continue;
        seen.add(l.id);
        rows.push({ l, enrolments: [e] });
      }
      yield rows;
    }
    return;
  }
  for await (const batch of pages((p) => r.learners.list(tenantId, createdIn(f), p))) {
    const rows: LearnerRow[] = [];
    for (const l of batch) {
      const enrolments = withEnrolments
        ? (await r.enrolments.list(tenantId, { learnerId: l.id }, { kind: 'offset', offset: 0, limit: 100 })).items
        : null;
      rows.push({ l, enrolments });
    }
    yield rows;
  }
}

/** The learners CSV (docs/api.md, "Exports"): a selection of learners, or those created or enrolled in a period. */
export const learnerExport = csvExportType({
  name: 'learners',
  label: 'Learners (CSV)',
  status: { values: ENROLMENT_STATUSES, described: 'Enrolment status' },
  selection: true,
  inFull: 'learners.csv',
  columns: LEARNER_COLUMNS,
  costly: LEARNER_ENROLMENT_COLUMNS,
  rows: (r: LearnerRepos & TrainingRepos, tenantId, f, fields) =>
    learnerRows(
      r,
      tenantId,
      f,
      fields.some((c) => LEARNER_ENROLMENT_COLUMNS.includes(c)),
    ),
  // Learners selected through their enrolments are each written once: not known without reading them.
  total: async (r, tenantId, f) =>
    f.programmeCode || f.status
      ? null
      : (await r.learners.list(tenantId, createdIn(f), { kind: 'offset', offset: 0, limit: 1 })).total,
});
