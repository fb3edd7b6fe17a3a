import type { LearnerRepos, LearnerSnapshot } from '@fundi/domain/learners';
import { OUTCOMES, type AssessmentSnapshot, type TrainingRepos } from '@fundi/domain/training';
import { pages, statusOf } from '../exports/export-reading.js';
import { csvExportType, type Column, type ResolvedFilters } from '../exports/export-type.js';
import { learnersOf, personColumns } from '../learners/learner-columns.js';

export interface AssessmentRow {
  a: AssessmentSnapshot;
  l: LearnerSnapshot | null;
}

export const ASSESSMENT_COLUMNS: Record<string, Column<AssessmentRow>> = {
  id: (r) => r.a.id,
  ...personColumns<AssessmentRow>(),
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

/** Assessments by assessment date (`from`/`to`), outcome (`status`: C or NYC) and programme. */
export async function* assessmentRows(
  r: Pick<LearnerRepos, 'learners'> & Pick<TrainingRepos, 'assessments'>,
  tenantId: string,
  f: ResolvedFilters,
): AsyncGenerator<AssessmentRow[]> {
  const filter = { from: f.from, to: f.to, outcome: statusOf(OUTCOMES, f.status) };
  for await (const batch of pages((p) => r.assessments.list(tenantId, filter, p))) {
    const kept = f.programmeId ? batch.filter((a) => a.programmeId === f.programmeId) : batch;
    const learners = await learnersOf(
      r,
      tenantId,
      kept.map((a) => a.learnerId),
    );
    yield kept.map((a) => ({ a, l: learners.get(a.learnerId) ?? null }));
  }
}

/** The assessments CSV (docs/api.md, "Exports"). */
export const assessmentExport = csvExportType({
  name: 'assessments',
  label: 'Assessments (CSV)',
  status: { values: OUTCOMES, described: 'outcome C/NYC' },
  inFull: 'assessments.csv',
  columns: ASSESSMENT_COLUMNS,
  rows: assessmentRows,
});
