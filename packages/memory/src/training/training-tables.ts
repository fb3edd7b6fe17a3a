import type {
  AssessmentSnapshot,
  EnrolmentSnapshot,
  ModerationSampleSnapshot,
  ModerationSnapshot,
  ProgrammeSnapshot,
  StatusChange,
} from '@fundi/domain/training';

/** The in-memory store's training tables, shared by the programme, enrolment and assessment repositories. */
export interface TrainingTables {
  programmes: Map<string, ProgrammeSnapshot>;
  enrolments: Map<string, EnrolmentSnapshot>;
  enrolmentHistory: StatusChange[];
  assessments: Map<string, Omit<AssessmentSnapshot, 'moderation'>>;
  moderations: Map<string, ModerationSnapshot>;
  moderationSamples: Map<string, ModerationSampleSnapshot>;
}

export const clone = <T>(x: T): T => structuredClone(x);
export const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
