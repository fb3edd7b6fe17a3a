import { DomainError, collect, type ErrorDetail } from '../common/errors.js';
import type { Citizenship, Gender } from './sa-id-number.js';
import {
  emptyProfile,
  parseProfile,
  parseProfilePatch,
  text,
  PROFILE_FIELDS,
  type LearnerProfile,
} from './learner-fields.js';
import { identityOf, type Identity } from './learner-identity.js';

export interface LearnerSnapshot extends LearnerProfile {
  id: string;
  tenantId: string;
  firstName: string;
  lastName: string;
  /** The SA ID number; `null` when the learner is identified by `alternateId` instead (exactly one is set). */
  idNumber: string | null;
  /** From the ID number, or given explicitly with an alternative ID. */
  dateOfBirth: string;
  gender: Gender;
  /** From the ID number's citizenship digit; `null` for a learner with an alternative ID. */
  citizenship: Citizenship | null;
  /** The learner agreed to WhatsApp messages; `whatsappConsentAt` is when (set by the service, cleared on withdrawal). */
  whatsappConsent: boolean;
  whatsappConsentAt: string | null;
  /** The learner asked for no email (the unsubscribe link, or through the API). */
  emailOptOut: boolean;
  /** Mail to the learner bounced for good: the contact details need an update (cleared when the email changes). */
  contactUpdateNeeded: boolean;
  createdAt: string;
  updatedAt: string;
}

/** The contact preferences of a new learner that gave none. */
export const NO_CONTACT_PREFERENCES = {
  whatsappConsent: false,
  whatsappConsentAt: null,
  emailOptOut: false,
  contactUpdateNeeded: false,
} as const;

/**
 * `now` as an ISO string, the last one remembered: an import registers its 100,000 learners at one `now`, and
 * `toISOString` cost more than a tenth of registering one.
 */
let lastIso = { time: Number.NaN, iso: '' };
function isoOf(now: Date): string {
  const time = now.getTime();
  if (time !== lastIso.time) lastIso = { time, iso: now.toISOString() };
  return lastIso.iso;
}

/** The profile the identity rules see when the given profile failed: nothing known. */
const EMPTY_PROFILE: LearnerProfile = Object.freeze(emptyProfile());

/** A DomainError's details added to `errors`; anything else thrown on. */
function detailsInto(errors: ErrorDetail[], e: unknown): void {
  if (!(e instanceof DomainError)) throw e;
  for (const d of e.details) errors.push(d);
}

/** A name (`text`, at most 100), or undefined with its error added to `errors`. */
function textOr(errors: ErrorDetail[], field: string, value: unknown): string | undefined {
  try {
    return text(field, value, 100);
  } catch (e) {
    detailsInto(errors, e);
    return undefined;
  }
}

function flag(field: string, v: unknown): boolean {
  if (typeof v !== 'boolean') throw DomainError.invalid(field, 'must be true or false');
  return v;
}

/** Raw input of register/update; fields are checked by `Learner.register` / `learner.update`. */
export type LearnerInput = Partial<
  Record<
    | keyof LearnerProfile
    | 'firstName'
    | 'lastName'
    | 'idNumber'
    | 'saIdNumber'
    | 'dateOfBirth'
    | 'gender'
    | 'whatsappConsent'
    | 'emailOptOut',
    unknown
  >
>;

export interface LearnerChange {
  field: string;
  from: unknown;
  to: unknown;
}

export class Learner {
  private constructor(private state: LearnerSnapshot) {}

  static register(input: LearnerInput, ctx: { id: string; tenantId: string; now: Date }): Learner {
    return new Learner(Learner.registered(input, ctx));
  }

  /**
   * What `register` makes, as the snapshot itself: the caller holds the only reference, so it is not copied (a bulk
   * import registers 100,000 learners and keeps only their snapshots).
   */
  static registered(input: LearnerInput, ctx: { id: string; tenantId: string; now: Date }): LearnerSnapshot {
    const errors: ErrorDetail[] = [];
    // Without `collect`'s closures: five a learner, 100,000 learners an import.
    const firstName = textOr(errors, 'firstName', input.firstName);
    const lastName = textOr(errors, 'lastName', input.lastName);
    const whatsappConsent =
      input.whatsappConsent == null ? false : collect(errors, () => flag('whatsappConsent', input.whatsappConsent));
    const emailOptOut =
      input.emailOptOut == null ? false : collect(errors, () => flag('emailOptOut', input.emailOptOut));
    let profile: LearnerProfile | undefined;
    try {
      profile = parseProfile(input as Record<string, unknown>);
    } catch (e) {
      detailsInto(errors, e);
    }
    // A profile that failed still has its identity checked, unless the identity depends on the failing profile.
    let identity: Identity | undefined;
    if (profile || input.alternateId == null)
      try {
        identity = identityOf(input, profile ?? EMPTY_PROFILE, null, ctx.now);
      } catch (e) {
        detailsInto(errors, e);
      }
    if (errors.length || !firstName || !lastName || !identity || !profile) throw DomainError.invalidMany(errors);
    const at = isoOf(ctx.now);
    // One literal, no spreads: every new learner gets the same fast shape (imports register them by the 100,000).
    return {
      id: ctx.id,
      tenantId: ctx.tenantId,
      firstName,
      lastName,
      idNumber: identity.idNumber,
      alternateId: identity.alternateId,
      alternateIdType: profile.alternateIdType,
      dateOfBirth: identity.dateOfBirth,
      gender: identity.gender,
      citizenship: identity.citizenship,
      middleName: profile.middleName,
      email: profile.email,
      mobile: profile.mobile,
      phone: profile.phone,
      title: profile.title,
      equityCode: profile.equityCode,
      nationalityCode: profile.nationalityCode,
      homeLanguageCode: profile.homeLanguageCode,
      citizenResidentStatusCode: profile.citizenResidentStatusCode,
      socioeconomicStatusCode: profile.socioeconomicStatusCode,
      disabilityStatusCode: profile.disabilityStatusCode,
      disabilityRating: profile.disabilityRating,
      immigrantStatus: profile.immigrantStatus,
      homeAddress: profile.homeAddress,
      postalAddress: profile.postalAddress,
      provinceCode: profile.provinceCode,
      statssaAreaCode: profile.statssaAreaCode,
      popiActAgree: profile.popiActAgree,
      popiActDate: profile.popiActDate,
      employer: profile.employer,
      employeeRef: profile.employeeRef,
      department: profile.department,
      jobTitle: profile.jobTitle,
      whatsappConsent: whatsappConsent === true,
      whatsappConsentAt: whatsappConsent === true ? at : null,
      emailOptOut: emailOptOut === true,
      contactUpdateNeeded: false,
      createdAt: at,
      updatedAt: at,
    };
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
    if (input.whatsappConsent != null) {
      const c = collect(errors, () => flag('whatsappConsent', input.whatsappConsent));
      if (c !== undefined && c !== next.whatsappConsent) {
        next.whatsappConsent = c;
        next.whatsappConsentAt = c ? now.toISOString() : null;
      }
    }
    if (input.emailOptOut != null)
      next.emailOptOut = collect(errors, () => flag('emailOptOut', input.emailOptOut)) ?? next.emailOptOut;
    const profile = collect(errors, () => parseProfilePatch(input as Record<string, unknown>));
    if (profile) Object.assign(next, profile);
    // A new address is a contact update: the bounce flag goes.
    if (next.email !== this.state.email) next.contactUpdateNeeded = false;
    const identity: Identity | undefined = profile
      ? collect(errors, () => identityOf(input, next, this.state, now))
      : undefined;
    if (errors.length || !profile || !identity) throw DomainError.invalidMany(errors);
    Object.assign(next, identity);
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
  'whatsappConsent',
  'emailOptOut',
  'contactUpdateNeeded',
] as const;

function diff(a: LearnerSnapshot, b: LearnerSnapshot): LearnerChange[] {
  const out: LearnerChange[] = [];
  for (const f of COMPARED) {
    if (JSON.stringify(a[f]) !== JSON.stringify(b[f])) out.push({ field: f, from: a[f], to: b[f] });
  }
  return out;
}
