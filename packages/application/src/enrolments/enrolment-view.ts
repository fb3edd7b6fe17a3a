import {
  progressOf,
  type AssessmentSnapshot,
  type EnrolmentSnapshot,
  type ProgrammeSnapshot,
  type Progress,
} from '@fundi/domain/training';
import type { TrainingRepos } from '@fundi/domain/training';

export type EnrolmentView = Omit<EnrolmentSnapshot, 'tenantId'> & { progress: Progress };

export function enrolmentView(
  e: EnrolmentSnapshot,
  programme: ProgrammeSnapshot | undefined,
  summative: readonly AssessmentSnapshot[],
): EnrolmentView {
  const { tenantId: _t, ...rest } = e;
  return { ...rest, progress: progressOf(programme?.modules ?? [], summative) };
}

/**
 * Views of several enrolments with their progress, in three reads whatever their number: the enrolments are
 * given, then their programmes, then their summative assessments (with moderation).
 */
export async function enrolmentViews(
  repos: TrainingRepos,
  tenantId: string,
  enrolments: readonly EnrolmentSnapshot[],
): Promise<EnrolmentView[]> {
  if (enrolments.length === 0) return [];
  const programmeIds = [...new Set(enrolments.map((e) => e.programmeId))];
  const [programmes, assessments] = await Promise.all([
    repos.programmes.findByIds(tenantId, programmeIds),
    repos.assessments.summativeForEnrolments(
      tenantId,
      enrolments.map((e) => e.id),
    ),
  ]);
  const byProgramme = new Map(programmes.map((p) => [p.id, p]));
  const byEnrolment = new Map<string, AssessmentSnapshot[]>();
  for (const a of assessments) {
    const list = byEnrolment.get(a.enrolmentId) ?? [];
    list.push(a);
    byEnrolment.set(a.enrolmentId, list);
  }
  return enrolments.map((e) => enrolmentView(e, byProgramme.get(e.programmeId), byEnrolment.get(e.id) ?? []));
}
