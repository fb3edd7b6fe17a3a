import { DomainError, type ErrorDetail } from '../common/errors.js';
import { IsoDate } from '../common/dates.js';
import type { LearnerProfile } from './learner-fields.js';
import { SaIdNumber, type Citizenship, type Gender } from './sa-id-number.js';

/** The identifying part of a learner: an SA ID number with its derived facts, or an alternative ID. */
export interface Identity {
  idNumber: string | null;
  alternateId: string | null;
  dateOfBirth: string;
  gender: Gender;
  citizenship: Citizenship | null;
}

interface IdentityInput {
  idNumber?: unknown;
  saIdNumber?: unknown;
  dateOfBirth?: unknown;
  gender?: unknown;
}

/** `idNumber` or its alias `saIdNumber` (docs/api.md, "Learners"); both given and different is invalid. */
function pickIdNumber(input: IdentityInput): { value: unknown; field: string } {
  const { idNumber, saIdNumber } = input;
  if (idNumber !== undefined && saIdNumber !== undefined && idNumber !== saIdNumber) {
    throw DomainError.invalid('saIdNumber', 'idNumber and saIdNumber are both given and differ');
  }
  return idNumber !== undefined ? { value: idNumber, field: 'idNumber' } : { value: saIdNumber, field: 'saIdNumber' };
}

function explicitDate(v: unknown, now: Date): string {
  if (v == null) throw DomainError.invalid('dateOfBirth', 'is required with alternateId');
  const d = IsoDate.parse(v, 'dateOfBirth');
  if (d > now.toISOString().slice(0, 10)) throw DomainError.invalid('dateOfBirth', 'must not be in the future');
  return d;
}

function explicitGender(v: unknown): Gender {
  if (v == null) throw DomainError.invalid('gender', 'is required with alternateId');
  if (v !== 'M' && v !== 'F') throw DomainError.invalid('gender', 'must be M or F');
  return v;
}

/**
 * Exactly one of the SA ID number and the alternative ID identifies a learner (docs/api.md, "Learners without an
 * SA ID"). With an ID number, date of birth, gender and citizenship come from it (given values must agree); with
 * an alternative ID its type, the date of birth, the gender and the nationality are required. `profile` is the
 * learner's profile after the change; `current` the stored learner on update (`null` on registration).
 */
export function identityOf(
  input: IdentityInput,
  profile: LearnerProfile,
  current: Identity | null,
  now: Date,
): Identity {
  const picked = pickIdNumber(input);
  const idNumber =
    picked.value === undefined
      ? (current?.idNumber ?? null)
      : picked.value === null
        ? null
        : SaIdNumber.parse(picked.value, picked.field, now);
  const errors: ErrorDetail[] = [];
  if (idNumber !== null && profile.alternateId !== null) {
    throw DomainError.invalid('alternateId', 'give either an SA ID number or an alternative ID, not both');
  }
  if (idNumber !== null) {
    const facts = SaIdNumber.factsOf(idNumber, now)!;
    if (input.dateOfBirth != null && input.dateOfBirth !== facts.dateOfBirth)
      errors.push({ field: 'dateOfBirth', message: 'does not agree with the ID number' });
    if (input.gender != null && input.gender !== facts.gender)
      errors.push({ field: 'gender', message: 'does not agree with the ID number' });
    if (profile.alternateIdType !== null)
      errors.push({ field: 'alternateIdType', message: 'is only given with an alternateId' });
    if (errors.length) throw DomainError.invalidMany(errors);
    return {
      idNumber,
      alternateId: null,
      dateOfBirth: facts.dateOfBirth,
      gender: facts.gender,
      citizenship: facts.citizenship,
    };
  }
  if (profile.alternateId === null) {
    throw DomainError.invalid('idNumber', 'is required (or an alternateId with its alternateIdType)');
  }
  if (profile.alternateIdType === null)
    errors.push({ field: 'alternateIdType', message: 'is required with alternateId' });
  if (profile.nationalityCode === null)
    errors.push({ field: 'nationalityCode', message: 'is required with alternateId' });
  const keep = current && current.idNumber === null ? current : null;
  let dateOfBirth: string | undefined = keep?.dateOfBirth;
  let gender: Gender | undefined = keep?.gender;
  try {
    if (input.dateOfBirth != null || !dateOfBirth) dateOfBirth = explicitDate(input.dateOfBirth, now);
  } catch (e) {
    errors.push(...(e as DomainError).details);
  }
  try {
    if (input.gender != null || !gender) gender = explicitGender(input.gender);
  } catch (e) {
    errors.push(...(e as DomainError).details);
  }
  if (errors.length || !dateOfBirth || !gender) throw DomainError.invalidMany(errors);
  return { idNumber: null, alternateId: profile.alternateId, dateOfBirth, gender, citizenship: null };
}
