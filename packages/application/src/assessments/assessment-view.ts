import { Assessment, type AssessmentSnapshot, type ModerationSnapshot, type Outcome } from '@fundi/domain';

export type ModerationView = Omit<ModerationSnapshot, 'tenantId'> & {
  originalOutcome: Outcome;
  effectiveOutcome: Outcome;
};
export type AssessmentView = Omit<AssessmentSnapshot, 'tenantId' | 'moderation'> & {
  effectiveOutcome: Outcome;
  moderation: ModerationView | null;
};

export function moderationView(a: AssessmentSnapshot, m: ModerationSnapshot): ModerationView {
  const { tenantId: _t, ...rest } = m;
  return {
    ...rest,
    originalOutcome: a.outcome,
    effectiveOutcome: Assessment.effectiveOutcome({ outcome: a.outcome, moderation: m }),
  };
}

/** An assessment as callers see it: the recorded outcome, the one that counts after moderation, and the moderation. */
export function assessmentView(a: AssessmentSnapshot): AssessmentView {
  const { tenantId: _t, moderation, ...rest } = a;
  return {
    ...rest,
    effectiveOutcome: Assessment.effectiveOutcome(a),
    moderation: moderation ? moderationView(a, moderation) : null,
  };
}
