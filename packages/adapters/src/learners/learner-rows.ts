import type { Address, LearnerSnapshot } from '@fundi/domain/learners';

/**
 * Snapshot field <-> column for the plain columns; addresses and the consent flag are mapped by hand below. The
 * type names every other snapshot field, so a field added to the learner without a column fails to compile.
 */
const COLUMNS = {
  id: 'id',
  tenantId: 'tenant_id',
  firstName: 'first_name',
  lastName: 'last_name',
  middleName: 'middle_name',
  idNumber: 'id_number',
  alternateId: 'alternate_id',
  alternateIdType: 'alternate_id_type',
  email: 'email',
  mobile: 'mobile',
  phone: 'phone',
  title: 'title',
  equityCode: 'equity_code',
  nationalityCode: 'nationality_code',
  homeLanguageCode: 'home_language_code',
  citizenResidentStatusCode: 'citizen_resident_status_code',
  socioeconomicStatusCode: 'socioeconomic_status_code',
  disabilityStatusCode: 'disability_status_code',
  disabilityRating: 'disability_rating',
  immigrantStatus: 'immigrant_status',
  provinceCode: 'province_code',
  statssaAreaCode: 'statssa_area_code',
  popiActDate: 'popi_act_date',
  employer: 'employer',
  employeeRef: 'employee_ref',
  department: 'department',
  jobTitle: 'job_title',
  dateOfBirth: 'date_of_birth',
  gender: 'gender',
  citizenship: 'citizenship',
  whatsappConsentAt: 'whatsapp_consent_at',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
} as const satisfies Record<
  Exclude<
    keyof LearnerSnapshot,
    'homeAddress' | 'postalAddress' | 'popiActAgree' | 'whatsappConsent' | 'emailOptOut' | 'contactUpdateNeeded'
  >,
  string
>;

/** A learners row as the database gives it back. */
export type LearnerRow = Record<string, string | number | boolean | null>;

const PLAIN_FIELDS = Object.keys(COLUMNS) as (keyof typeof COLUMNS)[];

/**
 * The snapshot's values in `LEARNER_COLUMNS` order, written into `out` from `at` (a bulk insert fills one array,
 * sized once, per statement); returns the index after the last. `flag` writes the true/false columns (SQLite's
 * 1/0 for a bulk insert: `Dialect.flag`, so the driver binds its 30,000 values without a converted copy).
 */
export function putLearnerValues(
  l: LearnerSnapshot,
  out: unknown[],
  at: number,
  flag: (b: boolean) => boolean | number = (b) => b,
): number {
  for (const f of PLAIN_FIELDS) out[at++] = l[f] ?? null;
  out[at++] = l.email ? l.email.toLowerCase() : null;
  out[at++] = l.popiActAgree === null ? null : flag(l.popiActAgree);
  out[at++] = flag(l.whatsappConsent);
  out[at++] = flag(l.emailOptOut);
  out[at++] = flag(l.contactUpdateNeeded);
  for (const a of [l.homeAddress, l.postalAddress]) {
    out[at++] = a?.line1 ?? null;
    out[at++] = a?.line2 ?? null;
    out[at++] = a?.line3 ?? null;
    out[at++] = a?.postalCode ?? null;
  }
  return at;
}

export function learnerToRow(l: LearnerSnapshot): LearnerRow {
  const values: LearnerRow[string][] = new Array(LEARNER_COLUMNS.length);
  putLearnerValues(l, values, 0);
  const row: LearnerRow = {};
  LEARNER_COLUMNS.forEach((c, i) => void (row[c] = values[i]!));
  return row;
}

/** An address of four columns, null when all four are (the column names are written out: no key is built per row). */
function addressOf(
  line1: string | null,
  line2: string | null,
  line3: string | null,
  postalCode: string | null,
): Address | null {
  return line1 === null && line2 === null && line3 === null && postalCode === null
    ? null
    : { line1, line2, line3, postalCode };
}

/** Written out as one literal (not a loop) so every learner object has the same fast shape: lists map 100 rows. */
export function rowToLearner(r: LearnerRow): LearnerSnapshot {
  const s = (v: unknown) => (v ?? null) as string | null;
  return {
    id: r.id as string,
    tenantId: r.tenant_id as string,
    firstName: r.first_name as string,
    lastName: r.last_name as string,
    idNumber: s(r.id_number),
    alternateId: s(r.alternate_id),
    alternateIdType: s(r.alternate_id_type) as LearnerSnapshot['alternateIdType'],
    dateOfBirth: r.date_of_birth as string,
    gender: r.gender as LearnerSnapshot['gender'],
    citizenship: s(r.citizenship) as LearnerSnapshot['citizenship'],
    middleName: s(r.middle_name),
    email: s(r.email),
    mobile: s(r.mobile),
    phone: s(r.phone),
    title: s(r.title),
    equityCode: s(r.equity_code),
    nationalityCode: s(r.nationality_code),
    homeLanguageCode: s(r.home_language_code),
    citizenResidentStatusCode: s(r.citizen_resident_status_code),
    socioeconomicStatusCode: s(r.socioeconomic_status_code),
    disabilityStatusCode: s(r.disability_status_code),
    disabilityRating: s(r.disability_rating),
    immigrantStatus: s(r.immigrant_status),
    homeAddress: addressOf(
      r.home_address_1 as string | null,
      r.home_address_2 as string | null,
      r.home_address_3 as string | null,
      r.home_postal_code as string | null,
    ),
    postalAddress: addressOf(
      r.postal_address_1 as string | null,
      r.postal_address_2 as string | null,
      r.postal_address_3 as string | null,
      r.postal_postal_code as string | null,
    ),
    provinceCode: s(r.province_code),
    statssaAreaCode: s(r.statssa_area_code),
    popiActAgree: r.popi_act_agree === null || r.popi_act_agree === undefined ? null : Boolean(r.popi_act_agree),
    popiActDate: s(r.popi_act_date),
    employer: s(r.employer),
    employeeRef: s(r.employee_ref),
    department: s(r.department),
    jobTitle: s(r.job_title),
    // Stored as 0/1 on SQLite; null after an erasure.
    whatsappConsent: Boolean(r.whatsapp_consent),
    whatsappConsentAt: s(r.whatsapp_consent_at),
    emailOptOut: Boolean(r.email_opt_out),
    contactUpdateNeeded: Boolean(r.contact_update_needed),
    createdAt: r.created_at as string,
    updatedAt: r.updated_at as string,
  };
}

/** Every column of a learner row, in the order `putLearnerValues` gives the values. */
export const LEARNER_COLUMNS = [
  ...Object.values(COLUMNS),
  'email_lower',
  'popi_act_agree',
  'whatsapp_consent',
  'email_opt_out',
  'contact_update_needed',
  ...['home', 'postal'].flatMap((p) => [`${p}_address_1`, `${p}_address_2`, `${p}_address_3`, `${p}_postal_code`]),
];

/** Columns that identify a person; erasure sets every one of them to null (POPIA s14/s24; docs/api.md, "Erasure"). */
export const PERSONAL_COLUMNS = LEARNER_COLUMNS.filter(
  (c) =>
    !['id', 'tenant_id', 'gender', 'citizenship', 'created_at', 'updated_at', 'province_code', 'equity_code'].includes(
      c,
    ),
);
