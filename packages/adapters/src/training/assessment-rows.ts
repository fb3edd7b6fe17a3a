import type { AssessmentSnapshot, ModerationSnapshot } from '@fundi/domain/training';
import { type Row, s } from './training-rows.js';

export const ASSESSMENT_COLUMNS = [
  'id',
  'tenant_id',
  'learner_id',
  'enrolment_id',
  'programme_id',
  'programme_code',
  'module_code',
  'assessment_type',
  'outcome',
  'assessment_date',
  'assessor_id',
  'recorded_by',
  'created_at',
] as const;

export function assessmentValues(a: AssessmentSnapshot): (string | null)[] {
  return [
    a.id,
    a.tenantId,
    a.learnerId,
    a.enrolmentId,
    a.programmeId,
    a.programmeCode,
    a.moduleCode,
    a.assessmentType,
    a.outcome,
    a.assessmentDate,
    a.assessorId,
    a.recordedBy,
    a.createdAt,
  ];
}

/** The assessment columns plus its moderation's, prefixed `m_`, from `assessments a LEFT JOIN moderations m`. */
export const ASSESSMENT_SELECT =
  'SELECT a.*, m.id AS m_id, m.decision AS m_decision, m.notes AS m_notes, m.moderator_id AS m_moderator_id, ' +
  'm.moderator_email AS m_moderator_email, m.moderated_at AS m_moderated_at FROM assessments a LEFT JOIN moderations m ON m.assessment_id = a.id';

export const MODERATION_ALIASES = {
  m_id: 'm.id',
  m_decision: 'm.decision',
  m_notes: 'm.notes',
  m_moderator_id: 'm.moderator_id',
  m_moderator_email: 'm.moderator_email',
  m_moderated_at: 'm.moderated_at',
};

function moderationOf(r: Row): ModerationSnapshot | null {
  if (r.m_id == null) return null;
  return {
    id: s(r.m_id)!,
    tenantId: s(r.tenant_id)!,
    assessmentId: s(r.id)!,
    decision: r.m_decision as ModerationSnapshot['decision'],
    notes: s(r.m_notes)!,
    moderatorId: s(r.m_moderator_id)!,
    moderatorEmail: s(r.m_moderator_email),
    moderatedAt: s(r.m_moderated_at)!,
  };
}

export const rowToAssessment = (r: Row): AssessmentSnapshot => ({
  id: s(r.id)!,
  tenantId: s(r.tenant_id)!,
  learnerId: s(r.learner_id)!,
  enrolmentId: s(r.enrolment_id)!,
  programmeId: s(r.programme_id)!,
  programmeCode: s(r.programme_code)!,
  moduleCode: s(r.module_code)!,
  assessmentType: r.assessment_type as AssessmentSnapshot['assessmentType'],
  outcome: r.outcome as AssessmentSnapshot['outcome'],
  assessmentDate: s(r.assessment_date)!,
  assessorId: s(r.assessor_id),
  recordedBy: s(r.recorded_by)!,
  createdAt: s(r.created_at)!,
  moderation: moderationOf(r),
});
