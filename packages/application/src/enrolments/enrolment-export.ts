import type { LearnerRepos, LearnerSnapshot } from '@fundi/domain/learners';
import { ENROLMENT_STATUSES, type EnrolmentSnapshot, type TrainingRepos } from '@fundi/domain/training';
import { pages, statusOf } from '../exports/export-reading.js';
import { csvExportType, type Column, type ResolvedFilters } from '../exports/export-type.js';
import { learnersOf, personColumns } from '../learners/learner-columns.js';

export interface EnrolmentRow {
  e: EnrolmentSnapshot;
  l: LearnerSnapshot | null;
}

export const ENROLMENT_COLUMNS: Record<string, Column<EnrolmentRow>> = {
  id: (r) => r.e.id,
  ...personColumns<EnrolmentRow>(),
  programme: (r) => r.e.programmeCode,
  status: (r) => r.e.status,
  start_date: (r) => r.e.startDate,
  expected_end_date: (r) => r.e.expectedEndDate,
  achievement_date: (r) => r.e.achievementDate,
  funding_source: (r) => r.e.fundingSource,
  created_at: (r) => r.e.createdAt,
  updated_at: (r) => r.e.updatedAt,
};

const selected = (f: ResolvedFilters) => ({
  programmeCode: f.programmeCode,
  status: statusOf(ENROLMENT_STATUSES, f.status),
  startFrom: f.from,
  startTo: f.to,
});

/** Enrolments by programme, status and start date (`from`/`to`), with their learners. */
export async function* enrolmentRows(
  r: Pick<LearnerRepos, 'learners'> & TrainingRepos,
  tenantId: string,
  f: ResolvedFilters,
): AsyncGenerator<EnrolmentRow[]> {
  for await (const batch of pages((p) => r.enrolments.list(tenantId, selected(f), p))) {
    const learners = await learnersOf(
      r,
      tenantId,
      batch.map((e) => e.learnerId),
    );
    yield batch.map((e) => ({ e, l: learners.get(e.learnerId) ?? null }));
  }
}

/** The enrolments CSV (docs/api.md, "Exports"). */
export const enrolmentExport = csvExportType({
  name: 'enrolments',
  label: 'Enrolments (CSV)',
  status: { values: ENROLMENT_STATUSES, described: 'Enrolment status' },
  inFull: 'enrolments.csv',
  columns: ENROLMENT_COLUMNS,
  rows: (r: Pick<LearnerRepos, 'learners'> & TrainingRepos, tenantId, f) => enrolmentRows(r, tenantId, f),
  total: async (r, tenantId, f) =>
    (await r.enrolments.list(tenantId, selected(f), { kind: 'offset', offset: 0, limit: 1 })).total,
});
