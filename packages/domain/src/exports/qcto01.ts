import type { LearnerSnapshot } from '../learners/learner.js';
import { ALTERNATE_ID_TYPES, ALTERNATE_ID_TYPE_NONE, type Address } from '../learners/learner-fields.js';
import { NLRD_CODES, type NlrdField } from '../learners/nlrd-codes.js';
import { CRLF, ascii, fixed, yyyymmdd } from './fixed-width.js';
import type { ReadinessFinding, ReadinessReason } from './readiness.js';
import type { RegulatorSettings } from './regulator-settings.js';

/** QCTO01 record length (domain reference, QCTO01 layout); every record is exactly this long before CRLF. */
export const QCTO01_LENGTH = 671;

/** Codes QCTO01 allows where they differ from the NLRD tables: no `U` home language. */
const QCTO01_CODES: Partial<Record<NlrdField, readonly string[]>> = {
  homeLanguageCode: NLRD_CODES.homeLanguageCode.filter((c) => c !== 'U'),
};

const NAME = /^[A-Za-z '`"^-]*$/;
const ADDRESS = /^[A-Za-z0-9 \-#&()/\\:._',]*$/;
const EMAIL = /^[A-Za-z0-9_.<>@-]*$/;

export type RecordResult = { record: string; findings: [] } | { record: null; findings: ReadinessFinding[] };

/** Collects findings for one learner while its fields are checked. */
export class FindingList {
  readonly items: ReadinessFinding[] = [];
  constructor(private readonly l: LearnerSnapshot) {}
  add(field: string, reason: ReadinessReason, message: string): void {
    this.items.push({
      learnerId: this.l.id,
      idNumber: this.l.idNumber,
      alternateId: this.l.alternateId,
      field,
      reason,
      message,
    });
  }
  setting(s: RegulatorSettings, name: keyof RegulatorSettings): string {
    const v = s[name];
    if (v === null) this.add(`settings.${name}`, 'missing_setting', `the regulator setting ${name} is not set`);
    return v ?? '';
  }
  required(field: string, v: string | null | undefined): string {
    if (v === null || v === undefined || v === '') this.add(field, 'missing', `${field} is required`);
    return v ?? '';
  }
  code(field: NlrdField, v: string | null): string {
    const value = this.required(field, v);
    const allowed = QCTO01_CODES[field] ?? (NLRD_CODES[field] as readonly string[]);
    if (value && !allowed.includes(value))
      this.add(field, 'invalid_code', `${value} is not allowed in this file (${allowed.join(', ')})`);
    return value;
  }
  chars(field: string, v: string, pattern: RegExp): string {
    if (!pattern.test(v)) this.add(field, 'invalid_characters', `${field} has characters the file does not allow`);
    return v;
  }
}

/** The learner's gender, checked against the ID number's digits (QCTO discards an upload where they differ). */
function genderOf(l: LearnerSnapshot, f: FindingList): string {
  if (l.idNumber) {
    const fromId = Number(l.idNumber.slice(6, 10)) < 5000 ? 'F' : 'M';
    if (fromId !== l.gender) f.add('gender', 'gender_mismatch', 'gender does not agree with the ID number');
    return fromId;
  }
  return l.gender;
}

/** `+27821234567` -> `0821234567`: digits only, in the national form SA systems key on. */
function phoneDigits(v: string | null): string {
  if (!v) return '';
  const d = v.replace(/\D/g, '');
  return d.startsWith('27') && d.length === 11 ? `0${d.slice(2)}` : d;
}

function addressLines(f: FindingList, field: string, a: Address | null): string {
  const line1 = f.chars(`${field}.line1`, ascii(f.required(`${field}.line1`, a?.line1)), ADDRESS);
  const line2 = f.chars(`${field}.line2`, ascii(a?.line2), ADDRESS);
  const line3 = f.chars(`${field}.line3`, ascii(a?.line3), ADDRESS);
  return fixed(line1, 50) + fixed(line2, 50) + fixed(line3, 50);
}

/**
 * One QCTO01 (learner information) record with its CRLF, or the findings that keep the learner out
 * (docs/api.md, "Regulator files"). `dateStamp` is the extract date (YYYY-MM-DD).
 */
export function qcto01Record(l: LearnerSnapshot, s: RegulatorSettings, dateStamp: string): RecordResult {
  const f = new FindingList(l);
  const sdp = f.setting(s, 'sdpCode');
  const altType = l.idNumber ? ALTERNATE_ID_TYPE_NONE : l.alternateIdType ? ALTERNATE_ID_TYPES[l.alternateIdType] : '';
  if (!l.idNumber && !l.alternateId) f.add('idNumber', 'missing', 'an ID number or an alternative ID is required');
  const disability = f.code('disabilityStatusCode', l.disabilityStatusCode);
  const needsRating = disability !== '' && disability !== 'N' && !l.disabilityRating;
  if (needsRating) f.add('disabilityRating', 'required_with_disability', 'a disability is recorded: give its rating');
  const rating = l.disabilityRating ? f.code('disabilityRating', l.disabilityRating) : '';
  const postal = l.postalAddress ?? l.homeAddress;
  const email = ascii(l.email);
  const popiAgree = l.popiActAgree === null ? f.required('popiActAgree', null) : l.popiActAgree ? 'Yes' : 'No';
  const record =
    fixed(sdp, 20) +
    fixed(l.idNumber, 15) +
    fixed(l.alternateId, 20) +
    fixed(altType, 3) +
    fixed(f.code('equityCode', l.equityCode), 10) +
    fixed(f.code('nationalityCode', l.nationalityCode), 3) +
    fixed(f.code('homeLanguageCode', l.homeLanguageCode), 10) +
    fixed(genderOf(l, f), 1) +
    fixed(f.code('citizenResidentStatusCode', l.citizenResidentStatusCode), 10) +
    fixed(f.code('socioeconomicStatusCode', l.socioeconomicStatusCode), 2) +
    fixed(disability, 10) +
    fixed(rating, 10) +
    fixed(f.code('immigrantStatus', l.immigrantStatus), 2) +
    fixed(f.chars('lastName', ascii(f.required('lastName', l.lastName)), NAME), 26) +
    fixed(f.chars('firstName', ascii(f.required('firstName', l.firstName)), NAME), 26) +
    fixed(f.chars('middleName', ascii(l.middleName), NAME), 26) +
    fixed(f.code('title', l.title), 10) +
    fixed(yyyymmdd(f.required('dateOfBirth', l.dateOfBirth)), 8) +
    addressLines(f, 'homeAddress', l.homeAddress) +
    addressLines(f, l.postalAddress ? 'postalAddress' : 'homeAddress', postal) +
    fixed(f.required('homeAddress.postalCode', l.homeAddress?.postalCode), 4) +
    fixed(f.required('postalAddress.postalCode', postal?.postalCode), 4) +
    fixed(phoneDigits(l.phone), 20) +
    fixed(phoneDigits(l.mobile), 20) +
    fixed('', 20) +
    fixed(EMAIL.test(email) ? email : '', 50) +
    fixed(f.code('provinceCode', l.provinceCode), 2) +
    fixed(ascii(f.required('statssaAreaCode', l.statssaAreaCode)), 20) +
    fixed(popiAgree, 3) +
    fixed(yyyymmdd(f.required('popiActDate', l.popiActDate)), 8) +
    fixed(yyyymmdd(dateStamp), 8);
  if (f.items.length) return { record: null, findings: dedupe(f.items) };
  if (record.length !== QCTO01_LENGTH) throw new Error(`QCTO01 record of ${record.length} characters`);
  return { record: record + CRLF, findings: [] };
}

/** One finding per (field, reason): a shared postal fallback must not report the same field twice. */
export function dedupe(items: ReadinessFinding[]): ReadinessFinding[] {
  // A learner has a few dozen findings at most: a scan of those kept is cheaper than a key string per finding.
  const kept: ReadinessFinding[] = [];
  for (const i of items) {
    let seen = false;
    for (const k of kept)
      if (k.field === i.field && k.reason === i.reason) {
        seen = true;
        break;
      }
    if (!seen) kept.push(i);
  }
  return kept;
}
