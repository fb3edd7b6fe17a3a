import { DomainError, type ErrorDetail } from '../common/errors.js';
import { IsoDate } from '../common/dates.js';
import { Email } from '../learners/contact.js';
import { collecting, oneOf } from './parse.js';

export const ASSESSMENT_TYPES = ['formative', 'summative'] as const;
export type AssessmentType = (typeof ASSESSMENT_TYPES)[number];
export const OUTCOMES = ['C', 'NYC'] as const;
export type Outcome = (typeof OUTCOMES)[number];
export const MODERATION_DECISIONS = ['upheld', 'overturned'] as const;
export type ModerationDecision = (typeof MODERATION_DECISIONS)[number];

export interface ModerationSnapshot {
  id: string;
  tenantId: string;
  assessmentId: string;
  decision: ModerationDecision;
  notes: string;
  /** The acting API key id. */
  moderatorId: string;
  moderatorEmail: string | null;
  moderatedAt: string;
}

/** One recorded result. Never changed after recording: a re-assessment is a new record (docs/api.md, "Assessments"). */
export interface AssessmentSnapshot {
  id: string;
  tenantId: string;
  learnerId: string;
  enrolmentId: string;
  programmeId: string;
  programmeCode: string;
  moduleCode: string;
  assessmentType: AssessmentType;
  outcome: Outcome;
  assessmentDate: string;
  /** The assessor's email when given, else null (the assessor is then the recording key). */
  assessorId: string | null;
  /** The API key id that recorded it. */
  recordedBy: string;
  createdAt: string;
  /** Read side only: the moderation of this assessment, if any. */
  moderation: ModerationSnapshot | null;
}

export type AssessmentInput = Partial<
  Record<'outcome' | 'assessmentType' | 'assessmentDate' | 'assessorEmail' | 'assessorId', unknown>
>;

/**
 * A person named by email under its name (`assessorEmail`) or its older one (`assessorId`), both accepted
 * (docs/api.md, "Who did it"); both given must be the same address.
 */
function emailOf(
  input: Record<string, unknown>,
  name: string,
  older: string,
  grab: ReturnType<typeof collecting>,
): string | null {
  const given = input[name] ?? null;
  const old = input[older] ?? null;
  if (given !== null && old !== null && given !== old) {
    grab(() => {
      throw DomainError.invalid(name, `and ${older} name different people; give ${name} only`);
    });
    return null;
  }
  if (given === null && old === null) return null;
  const field = given !== null ? name : older;
  return grab(() => Email.parse(given ?? old, field)) ?? null;
}

export const Assessment = {
  /** Validates the result's own fields; the date is neither in the future nor before `ctx.startDate`. */
  record(
    input: AssessmentInput,
    ctx: Pick<
      AssessmentSnapshot,
      'id' | 'tenantId' | 'learnerId' | 'enrolmentId' | 'programmeId' | 'programmeCode' | 'moduleCode' | 'recordedBy'
    > & { startDate: string; now: Date },
  ): AssessmentSnapshot {
    const errors: ErrorDetail[] = [];
    const grab = collecting(errors);
    const assessmentType = grab(() => oneOf(ASSESSMENT_TYPES, input.assessmentType, 'assessmentType'));
    const outcome = grab(() => oneOf(OUTCOMES, input.outcome, 'outcome'));
    const assessmentDate = grab(() => IsoDate.parse(input.assessmentDate, 'assessmentDate'));
    const assessorId = emailOf(input, 'assessorEmail', 'assessorId', grab);
    if (assessmentDate && assessmentDate > IsoDate.fromDate(ctx.now))
      errors.push({ field: 'assessmentDate', message: 'must not be in the future' });
    if (assessmentDate && assessmentDate < ctx.startDate)
      errors.push({ field: 'assessmentDate', message: `must not be before the enrolment start date ${ctx.startDate}` });
    if (errors.length || !assessmentType || !outcome || !assessmentDate) throw DomainError.invalidMany(errors);
    const { now: _now, startDate: _s, ...ids } = ctx;
    return {
      ...ids,
      assessmentType,
      outcome,
      assessmentDate,
      assessorId,
      createdAt: ctx.now.toISOString(),
      moderation: null,
    };
  },

  /**
   * When the assessment last changed: its moderation's time when moderated, else its creation (the result itself
   * never changes). Incremental sync filters on it.
   */
  updatedAt(a: Pick<AssessmentSnapshot, 'createdAt' | 'moderation'>): string {
    return a.moderation?.moderatedAt ?? a.createdAt;
  },

  /** The outcome that counts: the recorded one, flipped when a moderator overturned it. */
  effectiveOutcome(a: Pick<AssessmentSnapshot, 'outcome' | 'moderation'>): Outcome {
    if (a.moderation?.decision !== 'overturned') return a.outcome;
    return a.outcome === 'C' ? 'NYC' : 'C';
  },

  /**
   * A moderator's decision. The moderator may not be the assessor: neither the key that recorded the result nor
   * the assessor's email. A second moderation is a conflict.
   */
  moderate(
    a: AssessmentSnapshot,
    input: { decision?: unknown; notes?: unknown; moderatorEmail?: unknown; moderatorId?: unknown },
    ctx: { id: string; moderatorKeyId: string; now: Date },
  ): ModerationSnapshot {
    if (a.moderation)
      throw DomainError.conflict('already_moderated', 'This assessment has already been moderated', [], {
        moderationId: a.moderation.id,
      });
    const errors: ErrorDetail[] = [];
    const grab = collecting(errors);
    const decision = grab(() => oneOf(MODERATION_DECISIONS, input.decision, 'decision'));
    const notes = grab(() => notesOf(input.notes));
    const moderatorEmail = emailOf(input, 'moderatorEmail', 'moderatorId', grab);
    if (errors.length || !decision || notes === undefined) throw DomainError.invalidMany(errors);
    const sameEmail =
      moderatorEmail !== null && a.assessorId !== null && moderatorEmail.toLowerCase() === a.assessorId.toLowerCase();
    if (ctx.moderatorKeyId === a.recordedBy || sameEmail) {
      throw new DomainError(
        'forbidden',
        'moderator_is_assessor',
        'The moderator may not be the assessor of the assessment',
        [],
        { reason: 'moderator_is_assessor' },
      );
    }
    return {
      id: ctx.id,
      tenantId: a.tenantId,
      assessmentId: a.id,
      decision,
      notes,
      moderatorId: ctx.moderatorKeyId,
      moderatorEmail,
      moderatedAt: ctx.now.toISOString(),
    };
  },
};

function notesOf(v: unknown): string {
  if (typeof v !== 'string' || !v.trim()) throw DomainError.invalid('notes', 'must be a non-empty string');
  if (v.length > 4000) throw DomainError.invalid('notes', 'must be at most 4000 characters');
  return v.trim();
}
