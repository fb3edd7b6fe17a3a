import { Assessment, type AssessmentSnapshot, type ModerationSnapshot, type Outcome } from '@fundi/domain/training';

export type ModerationView = Omit<ModerationSnapshot, 'tenantId' | 'moderatorId'> & {
  /** The key or staff user that recorded the moderation (an actor id; shown as `{type, id, name}`). */
  moderatedBy: string;
  originalOutcome: Outcome;
  effectiveOutcome: Outcome;
};
export type AssessmentView = Omit<AssessmentSnapshot, 'tenantId' | 'moderation'> & {
  /** The assessor's email (`assessorId` is its older name, the same value). */
  assessorEmail: string | null;
  /** The moderation's time when moderated, else `createdAt` (`Assessment.updatedAt`). */
  updatedAt: string;
  effectiveOutcome: Outcome;
  moderation: ModerationView | null;
};

export function moderationView(a: AssessmentSnapshot, m: ModerationSnapshot): ModerationView {
  const { tenantId: _t, moderatorId, ...rest } = m;
  return {
    ...rest,
    moderatedBy: moderatorId,
    originalOutcome: a.outcome,
    effectiveOutcome: Assessment.effectiveOutcome({ outcome: a.outcome, moderation: m }),
  };
}

/** An assessment as callers see it: the recorded outcome, the one that counts after moderation, and the moderation. */
export function assessmentView(a: AssessmentSnapshot): AssessmentView {
  const { tenantId: _t, moderation, ...rest } = a;
  return {
    ...rest,
    assessorEmail: a.assessorId,
    updatedAt: Assessment.updatedAt(a),
    effectiveOutcome: Assessment.effectiveOutcome(a),
    moderation: moderation ? moderationView(a, moderation) : null,
  };
}
