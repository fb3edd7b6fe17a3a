import type { LearnerSnapshot } from '@fundi/domain/learners';
import type { ProgrammeSnapshot } from '@fundi/domain/training';

type EventSpec = { type: string; data: Record<string, unknown>; subjectId: string };

/**
 * `learner.completed` for HR (docs/api.md, "HR sync"), raised with the completion itself; only for a learner HR
 * knows (one with an employeeRef). The learner is its subject, so an erasure redacts it.
 */
export function hrCompletionEvents(
  learner: Pick<LearnerSnapshot, 'id' | 'employeeRef'> | null,
  programme: Pick<ProgrammeSnapshot, 'code' | 'name' | 'qualificationId'> | null,
  achievementDate: string,
  certificateNumber: string | null,
): EventSpec[] {
  if (!learner?.employeeRef || !programme) return [];
  const data = {
    employeeRef: learner.employeeRef,
    qualificationId: programme.qualificationId,
    qualificationName: programme.name,
    programmeCode: programme.code,
    achievementDate,
    certificateNumber,
  };
  return [{ type: 'learner.completed', data, subjectId: learner.id }];
}

/** `learner.competency` for HR on every assessment of a learner with an employeeRef. */
export function hrCompetencyEvents(
  learner: Pick<LearnerSnapshot, 'id' | 'employeeRef'>,
  a: { moduleCode: string; outcome: string; assessmentDate: string; assessmentType: string },
): EventSpec[] {
  if (!learner.employeeRef) return [];
  const data = {
    employeeRef: learner.employeeRef,
    moduleCode: a.moduleCode,
    outcome: a.outcome,
    assessmentType: a.assessmentType,
    date: a.assessmentDate,
  };
  return [{ type: 'learner.competency', data, subjectId: learner.id }];
}
