import { DomainError, collect, type ErrorDetail } from '../shared/errors.js';
import { SaIdNumber, type Citizenship, type Gender } from './sa-id-number.js';
import { emptyProfile, parseProfilePatch, text, PROFILE_FIELDS, type LearnerProfile } from './learner-fields.js';

export interface LearnerSnapshot extends LearnerProfile {
  id: string;
  tenantId: string;
  firstName: string;
  lastName: string;
  idNumber: string;
  dateOfBirth: string;
  gender: Gender;
  citizenship: Citizenship;
  createdAt: string;
  updatedAt: string;
}

/** Raw input of register/update; fields are checked by `Learner.register` / `learner.update`. */
export type LearnerInput = Partial<
  Record<keyof LearnerProfile | 'firstName' | 'lastName' | 'idNumber' | 'saIdNumber', unknown>
>;

export interface LearnerChange {
  field: string;
  from: unknown;
  to: unknown;
}

/** `idNumber` or its alias `saIdNumber` (docs/api.md, "Learners"); both given and different is invalid. */
function pickIdNumber(input: LearnerInput): unknown {
  const { idNumber, saIdNumber } = input;
  if (idNumber !== undefined && saIdNumber !== undefined && idNumber !== saIdNumber) {
    throw DomainError.invalid('saIdNumber', 'idNumber and saIdNumber are both given and differ');
  }
  return idNumber ?? saIdNumber;
}

export class Learner {
  private constructor(private state: LearnerSnapshot) {}

  static register(input: LearnerInput, ctx: { id: string; tenantId: string; now: Date }): Learner {
    const errors: ErrorDetail[] = [];
    const firstName = collect(errors, () => text('firstName', input.firstName, 100));
    const lastName = collect(errors, () => text('lastName', input.lastName, 100));
    const rawId = collect(errors, () => pickIdNumber(input));
    const idNumber =
      rawId === undefined && !errors.some((e) => e.field === 'saIdNumber')
        ? (errors.push({ field: 'idNumber', message: 'is required' }), undefined)
        : collect(errors, () =>
            rawId === undefined
              ? undefined
              : SaIdNumber.parse(rawId, input.idNumber !== undefined ? 'idNumber' : 'saIdNumber', ctx.now),
          );
    const profile = collect(errors, () => parseProfilePatch(input as Record<string, unknown>));
    if (errors.length || !firstName || !lastName || !idNumber || !profile) throw DomainError.invalidMany(errors);
    const at = ctx.now.toISOString();
    return new Learner({
      ...emptyProfile(),
      ...profile,
      id: ctx.id,
      tenantId: ctx.tenantId,
      firstName,
      lastName,
      idNumber,
      ...SaIdNumber.factsOf(idNumber, ctx.now)!,
      createdAt: at,
      updatedAt: at,
    });
  }

  static fromSnapshot(s: LearnerSnapshot): Learner {
    return new Learner({ ...s });
  }

  get id(): string {
    return this.state.id;
  }

  /** Applies a partial update; returns the fields that really changed (empty when nothing did). */
  update(input: LearnerInput, now: Date): LearnerChange[] {
    const errors: ErrorDetail[] = [];
    const next: LearnerSnapshot = { ...this.state };
    if (input.firstName !== undefined)
      next.firstName = collect(errors, () => text('firstName', input.firstName, 100)) ?? next.firstName;
    if (input.lastName !== undefined)
      next.lastName = collect(errors, () => text('lastName', input.lastName, 100)) ?? next.lastName;
    const rawId = collect(errors, () => pickIdNumber(input));
    if (rawId !== undefined) {
      const idNumber = collect(errors, () =>
        SaIdNumber.parse(rawId, input.idNumber !== undefined ? 'idNumber' : 'saIdNumber', now),
      );
      if (idNumber) Object.assign(next, { idNumber }, SaIdNumber.factsOf(idNumber, now));
    }
    const profile = collect(errors, () => parseProfilePatch(input as Record<string, unknown>));
    if (errors.length || !profile) throw DomainError.invalidMany(errors);
    Object.assign(next, profile);
    const changes = diff(this.state, next);
    if (changes.length) {
      next.updatedAt = now.toISOString();
      this.state = next;
    }
    return changes;
  }

  toSnapshot(): LearnerSnapshot {
    return { ...this.state };
  }
}

/** A new ID number changes the facts derived from it too; they are reported so `learner.updated` matches the view. */
const COMPARED = [
  'firstName',
  'lastName',
  'idNumber',
  'dateOfBirth',
  'gender',
  'citizenship',
  ...PROFILE_FIELDS,
] as const;

function diff(a: LearnerSnapshot, b: LearnerSnapshot): LearnerChange[] {
  const out: LearnerChange[] = [];
  for (const f of COMPARED) {
    if (JSON.stringify(a[f]) !== JSON.stringify(b[f])) out.push({ field: f, from: a[f], to: b[f] });
  }
  return out;
}
