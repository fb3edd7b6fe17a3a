import type { Address, LearnerSnapshot } from '@fundi/domain/learners';
import type { RowReader } from '../db/paging.js';

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

/** The true/false columns, then the two addresses' four columns each. */
const FLAG_COLUMNS = ['popi_act_agree', 'whatsapp_consent', 'email_opt_out', 'contact_update_needed'] as const;
const ADDRESS_COLUMNS = [
  'home_address_1',
  'home_address_2',
  'home_address_3',
  'home_postal_code',
  'postal_address_1',
  'postal_address_2',
  'postal_address_3',
  'postal_postal_code',
] as const;

/** Every column of a learner row, in the order `putLearnerValues` gives the values. */
export const LEARNER_COLUMNS = [...Object.values(COLUMNS), 'email_lower', ...FLAG_COLUMNS, ...ADDRESS_COLUMNS];

/**
 * The columns a learner's snapshot is read from, in the order `learnerOf` reads their values: every column of
 * `LEARNER_COLUMNS` but `email_lower` (the email's lower case, for lookups). Neither it nor `erased_at` is read into
 * the snapshot, so a read selects these alone.
 */
const READ_COLUMNS = [...Object.values(COLUMNS), ...FLAG_COLUMNS, ...ADDRESS_COLUMNS];
type ReadColumn = (typeof READ_COLUMNS)[number];
/** Each read column's place in a row read by `learnerOf`. */
const AT = Object.fromEntries(READ_COLUMNS.map((c, i) => [c, i])) as Record<ReadColumn, number>;

/** The read columns as a SELECT list, each of `table` when given (`l.id, l.tenant_id, ...`). */
export const learnerSelect = (table?: string) => READ_COLUMNS.map((c) => (table ? `${table}.${c}` : c)).join(', ');

const text = (v: unknown) => (v ?? null) as string | null;

/** An address of four columns, null when all four are. */
function addressOf(line1: unknown, line2: unknown, line3: unknown, postalCode: unknown): Address | null {
  return line1 === null && line2 === null && line3 === null && postalCode === null
    ? null
    : { line1: text(line1), line2: text(line2), line3: text(line3), postalCode: text(postalCode) };
}

/**
 * A learner's snapshot from the values of the read columns (`learnerSelect`), as both drivers give a row in array
 * mode (`SqlDb.allArrays`): no object is made per row on the way. Values past the read columns (a sort key, a
 * count) are not read. Written out as one literal (not a loop) so every learner object has the same fast shape:
 * lists make 100 of them.
 */
export function learnerOf(v: readonly unknown[]): LearnerSnapshot {
  return {
    id: v[AT.id] as string,
    tenantId: v[AT.tenant_id] as string,
    firstName: v[AT.first_name] as string,
    lastName: v[AT.last_name] as string,
    idNumber: text(v[AT.id_number]),
    alternateId: text(v[AT.alternate_id]),
    alternateIdType: text(v[AT.alternate_id_type]) as LearnerSnapshot['alternateIdType'],
    dateOfBirth: v[AT.date_of_birth] as string,
    gender: v[AT.gender] as LearnerSnapshot['gender'],
    citizenship: text(v[AT.citizenship]) as LearnerSnapshot['citizenship'],
    middleName: text(v[AT.middle_name]),
    email: text(v[AT.email]),
    mobile: text(v[AT.mobile]),
    phone: text(v[AT.phone]),
    title: text(v[AT.title]),
    equityCode: text(v[AT.equity_code]),
    nationalityCode: text(v[AT.nationality_code]),
    homeLanguageCode: text(v[AT.home_language_code]),
    citizenResidentStatusCode: text(v[AT.citizen_resident_status_code]),
    socioeconomicStatusCode: text(v[AT.socioeconomic_status_code]),
    disabilityStatusCode: text(v[AT.disability_status_code]),
    disabilityRating: text(v[AT.disability_rating]),
    immigrantStatus: text(v[AT.immigrant_status]),
    homeAddress: addressOf(v[AT.home_address_1], v[AT.home_address_2], v[AT.home_address_3], v[AT.home_postal_code]),
    postalAddress: addressOf(
      v[AT.postal_address_1],
      v[AT.postal_address_2],
      v[AT.postal_address_3],
      v[AT.postal_postal_code],
    ),
    provinceCode: text(v[AT.province_code]),
    statssaAreaCode: text(v[AT.statssa_area_code]),
    popiActAgree: v[AT.popi_act_agree] == null ? null : Boolean(v[AT.popi_act_agree]),
    popiActDate: text(v[AT.popi_act_date]),
    employer: text(v[AT.employer]),
    employeeRef: text(v[AT.employee_ref]),
    department: text(v[AT.department]),
    jobTitle: text(v[AT.job_title]),
    // Stored as 0/1 on SQLite; null after an erasure.
    whatsappConsent: Boolean(v[AT.whatsapp_consent]),
    whatsappConsentAt: text(v[AT.whatsapp_consent_at]),
    emailOptOut: Boolean(v[AT.email_opt_out]),
    contactUpdateNeeded: Boolean(v[AT.contact_update_needed]),
    createdAt: v[AT.created_at] as string,
    updatedAt: v[AT.updated_at] as string,
  };
}

/** How a list reads its learners (`pageQuery`): the read columns first, then `learnerOf` of their values. */
export const LEARNER_READER: RowReader<LearnerSnapshot> = { columns: READ_COLUMNS, read: learnerOf };

/** Columns that identify a person; erasure sets every one of them to null (POPIA s14/s24; docs/api.md, "Erasure"). */
export const PERSONAL_COLUMNS = LEARNER_COLUMNS.filter(
  (c) =>
    !['id', 'tenant_id', 'gender', 'citizenship', 'created_at', 'updated_at', 'province_code', 'equity_code'].includes(
      c,
    ),
);
