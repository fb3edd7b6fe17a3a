import { DomainError, type ErrorDetail } from '../common/errors.js';
import { IsoDate } from '../common/dates.js';
import { safeText } from '../common/text.js';
import { Email, Mobile } from './contact.js';
import { NLRD_CODES, parseNlrdCode, type NlrdField } from './nlrd-codes.js';

export interface Address {
  line1: string | null;
  line2: string | null;
  line3: string | null;
  postalCode: string | null;
}

/** The learner's optional profile: contact, HR and the regulator's (QCTO01) fields. `null` = not known. */
export interface LearnerProfile {
  /** A passport, refugee, work-permit or birth-certificate number, for a learner without an SA ID number. */
  alternateId: string | null;
  /** Which document `alternateId` is (QCTO01 Alternative Id Type: passport 527, refugee 565, ...). */
  alternateIdType: AlternateIdType | null;
  middleName: string | null;
  email: string | null;
  mobile: string | null;
  phone: string | null;
  title: string | null;
  equityCode: string | null;
  nationalityCode: string | null;
  homeLanguageCode: string | null;
  citizenResidentStatusCode: string | null;
  socioeconomicStatusCode: string | null;
  disabilityStatusCode: string | null;
  disabilityRating: string | null;
  immigrantStatus: string | null;
  homeAddress: Address | null;
  postalAddress: Address | null;
  provinceCode: string | null;
  statssaAreaCode: string | null;
  popiActAgree: boolean | null;
  popiActDate: string | null;
  employer: string | null;
  employeeRef: string | null;
  department: string | null;
  jobTitle: string | null;
}

export function emptyProfile(): LearnerProfile {
  const p: Partial<Record<keyof LearnerProfile, null>> = {};
  for (const f of PROFILE_FIELDS) p[f] = null;
  // Every field is set: `PROFILE_FIELDS` names each field of the profile, and each may be null.
  return p as Record<keyof LearnerProfile, null>;
}

/** Free text of a learner (names, employer, address lines): trimmed, non-empty, at most `max`, the text rule. */
export function text(field: string, value: unknown, max: number): string {
  if (typeof value !== 'string' || value.trim() === '') throw DomainError.invalid(field, 'must be a non-empty string');
  const v = value.trim();
  if (v.length > max) throw DomainError.invalid(field, `must be at most ${max} characters`);
  return safeText(v, field);
}

/** An address field's parts' names for its errors (`homeAddress.line1`), made once: imports read two a row. */
const ADDRESS_FIELD_NAMES = new Map<string, { line1: string; line2: string; line3: string; postalCode: string }>();
function addressFieldNames(field: string) {
  let names = ADDRESS_FIELD_NAMES.get(field);
  if (!names) {
    names = {
      line1: `${field}.line1`,
      line2: `${field}.line2`,
      line3: `${field}.line3`,
      postalCode: `${field}.postalCode`,
    };
    ADDRESS_FIELD_NAMES.set(field, names);
  }
  return names;
}

function address(field: string, value: unknown): Address {
  if (typeof value !== 'object' || value === null) throw DomainError.invalid(field, 'must be an object');
  const a = value as Record<string, unknown>;
  const names = addressFieldNames(field);
  const postalCode = a.postalCode == null ? null : String(a.postalCode);
  if (postalCode !== null && !/^\d{4}$/.test(postalCode))
    throw DomainError.invalid(names.postalCode, 'must be exactly 4 digits');
  return {
    line1: a.line1 == null ? null : text(names.line1, a.line1, 50),
    line2: a.line2 == null ? null : text(names.line2, a.line2, 50),
    line3: a.line3 == null ? null : text(names.line3, a.line3, 50),
    postalCode,
  };
}

type FieldParser = (value: unknown, field: string) => unknown;
const code =
  (f: NlrdField): FieldParser =>
  (v) =>
    parseNlrdCode(f, v);

const PARSERS: Record<keyof LearnerProfile, FieldParser> = {
  alternateId: (v, f) => {
    const id = text(f, v, 20);
    if (!/^[A-Za-z0-9/-]+$/.test(id)) throw DomainError.invalid(f, 'must be letters, digits, / or - (at most 20)');
    return id.toUpperCase();
  },
  alternateIdType: (v, f) => {
    if (typeof v !== 'string' || !(v in ALTERNATE_ID_TYPES))
      throw DomainError.invalid(f, `must be one of ${Object.keys(ALTERNATE_ID_TYPES).join(', ')}`, 'invalid_code');
    return v;
  },
  middleName: (v, f) => text(f, v, 100),
  email: (v, f) => Email.parse(v, f),
  mobile: (v, f) => Mobile.parse(v, f),
  phone: (v, f) => {
    const digits = typeof v === 'string' ? v.replace(/[\s()+-]/g, '') : '';
    if (!/^\d{9,15}$/.test(digits)) throw DomainError.invalid(f, 'must be a phone number of 9 to 15 digits');
    return digits;
  },
  title: code('title'),
  equityCode: code('equityCode'),
  nationalityCode: code('nationalityCode'),
  homeLanguageCode: code('homeLanguageCode'),
  citizenResidentStatusCode: code('citizenResidentStatusCode'),
  socioeconomicStatusCode: code('socioeconomicStatusCode'),
  disabilityStatusCode: code('disabilityStatusCode'),
  disabilityRating: code('disabilityRating'),
  immigrantStatus: code('immigrantStatus'),
  homeAddress: (v, f) => address(f, v),
  postalAddress: (v, f) => address(f, v),
  provinceCode: code('provinceCode'),
  statssaAreaCode: (v, f) => text(f, v, 20),
  popiActAgree: (v, f) => {
    if (typeof v !== 'boolean') throw DomainError.invalid(f, 'must be true or false');
    return v;
  },
  popiActDate: (v, f) => IsoDate.parse(v, f),
  employer: (v, f) => text(f, v, 200),
  employeeRef: (v, f) => text(f, v, 100),
  department: (v, f) => text(f, v, 100),
  jobTitle: (v, f) => text(f, v, 100),
};

/**
 * Every profile field, in declaration order. Derived from the parser table, which must name every field of
 * `LearnerProfile` (a missing one fails to compile), so the list cannot fall behind the type.
 */
export const PROFILE_FIELDS = Object.keys(PARSERS) as (keyof LearnerProfile)[];

/** Parses the profile fields present in `input`; `null` clears a field. Collects every failing field. */
export function parseProfilePatch(input: Record<string, unknown>): Partial<LearnerProfile> {
  const out: Record<string, unknown> = {};
  const errors: DomainError[] = [];
  for (const f of PROFILE_FIELDS) {
    if (!(f in input) || input[f] === undefined) continue;
    const v = input[f];
    if (v === null) {
      out[f] = null;
      continue;
    }
    try {
      out[f] = PARSERS[f](v, f);
    } catch (e) {
      if (e instanceof DomainError) errors.push(e);
      else throw e;
    }
  }
  if (errors.length) throw DomainError.invalidMany(errors.flatMap((e) => e.details));
  return out as Partial<LearnerProfile>;
}

/**
 * A whole profile for a new learner: the same parsers as `parseProfilePatch`, every field given (absent or `null`
 * is `null`), failing fields collected in the same order. Written out as one literal so every profile has one
 * fast shape: imports register 100,000 learners at a time.
 */
export function parseProfile(input: Record<string, unknown>): LearnerProfile {
  const errors: ErrorDetail[] = [];
  const p = <F extends keyof LearnerProfile>(f: F): LearnerProfile[F] => {
    const v = input[f];
    if (v == null) return null as LearnerProfile[F];
    try {
      return PARSERS[f](v, f) as LearnerProfile[F];
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      for (const d of e.details) errors.push(d);
      return null as LearnerProfile[F];
    }
  };
  const profile: LearnerProfile = {
    alternateId: p('alternateId'),
    alternateIdType: p('alternateIdType'),
    middleName: p('middleName'),
    email: p('email'),
    mobile: p('mobile'),
    phone: p('phone'),
    title: p('title'),
    equityCode: p('equityCode'),
    nationalityCode: p('nationalityCode'),
    homeLanguageCode: p('homeLanguageCode'),
    citizenResidentStatusCode: p('citizenResidentStatusCode'),
    socioeconomicStatusCode: p('socioeconomicStatusCode'),
    disabilityStatusCode: p('disabilityStatusCode'),
    disabilityRating: p('disabilityRating'),
    immigrantStatus: p('immigrantStatus'),
    homeAddress: p('homeAddress'),
    postalAddress: p('postalAddress'),
    provinceCode: p('provinceCode'),
    statssaAreaCode: p('statssaAreaCode'),
    popiActAgree: p('popiActAgree'),
    popiActDate: p('popiActDate'),
    employer: p('employer'),
    employeeRef: p('employeeRef'),
    department: p('department'),
    jobTitle: p('jobTitle'),
  };
  if (errors.length) throw DomainError.invalidMany(errors);
  return profile;
}

export { NLRD_CODES };

/** The alternative identity documents QCTO01 accepts, with their Alternative Id Type codes. */
export const ALTERNATE_ID_TYPES = {
  passport: '527',
  refugee: '565',
  work_permit: '538',
  birth_certificate: '540',
} as const;
export type AlternateIdType = keyof typeof ALTERNATE_ID_TYPES;
/** QCTO01's Alternative Id Type when a valid SA ID number is given ("none"). */
export const ALTERNATE_ID_TYPE_NONE = '533';
