import type { Address, LearnerSnapshot } from '@fundi/domain';

/** Snapshot field <-> column for the plain text columns. Addresses and the flag are mapped by hand below. */
const COLUMNS = {
  id: 'id', tenantId: 'tenant_id', firstName: 'first_name', lastName: 'last_name', middleName: 'middle_name',
  idNumber: 'id_number', email: 'email', mobile: 'mobile', phone: 'phone', title: 'title', equityCode: 'equity_code',
  nationalityCode: 'nationality_code', homeLanguageCode: 'home_language_code',
  citizenResidentStatusCode: 'citizen_resident_status_code', socioeconomicStatusCode: 'socioeconomic_status_code',
  disabilityStatusCode: 'disability_status_code', disabilityRating: 'disability_rating', immigrantStatus: 'immigrant_status',
  provinceCode: 'province_code', statssaAreaCode: 'statssa_area_code', popiActDate: 'popi_act_date', employer: 'employer',
  employeeRef: 'employee_ref', department: 'department', jobTitle: 'job_title', dateOfBirth: 'date_of_birth',
  gender: 'gender', citizenship: 'citizenship', createdAt: 'created_at', updatedAt: 'updated_at',
} as const satisfies Partial<Record<keyof LearnerSnapshot, string>>;

type Row = Record<string, string | number | boolean | null>;

export function learnerToRow(l: LearnerSnapshot): Row {
  const row: Row = {};
  for (const [field, column] of Object.entries(COLUMNS)) row[column] = (l as unknown as Record<string, string | null>)[field] ?? null;
  row.email_lower = l.email ? l.email.toLowerCase() : null;
  row.popi_act_agree = l.popiActAgree;
  Object.assign(row, addressColumns('home', l.homeAddress), addressColumns('postal', l.postalAddress));
  return row;
}

function addressColumns(prefix: string, a: Address | null): Row {
  return {
    [`${prefix}_address_1`]: a?.line1 ?? null,
    [`${prefix}_address_2`]: a?.line2 ?? null,
    [`${prefix}_address_3`]: a?.line3 ?? null,
    [`${prefix}_postal_code`]: a?.postalCode ?? null,
  };
}

function addressOf(prefix: string, row: Row): Address | null {
  const a = {
    line1: row[`${prefix}_address_1`] as string | null,
    line2: row[`${prefix}_address_2`] as string | null,
    line3: row[`${prefix}_address_3`] as string | null,
    postalCode: row[`${prefix}_postal_code`] as string | null,
  };
  return a.line1 === null && a.line2 === null && a.line3 === null && a.postalCode === null ? null : a;
}

export function rowToLearner(row: Row): LearnerSnapshot {
  const l: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(COLUMNS)) l[field] = row[column] ?? null;
  l.popiActAgree = row.popi_act_agree === null || row.popi_act_agree === undefined ? null : Boolean(row.popi_act_agree);
  l.homeAddress = addressOf('home', row);
  l.postalAddress = addressOf('postal', row);
  return l as unknown as LearnerSnapshot;
}

export const LEARNER_COLUMNS = [...Object.values(COLUMNS), 'email_lower', 'popi_act_agree',
  ...['home', 'postal'].flatMap((p) => [`${p}_address_1`, `${p}_address_2`, `${p}_address_3`, `${p}_postal_code`])];

/** Columns that identify a person; erasure sets every one of them to null (D3, POPIA s14/s24). */
export const PERSONAL_COLUMNS = LEARNER_COLUMNS.filter(
  (c) => !['id', 'tenant_id', 'gender', 'citizenship', 'created_at', 'updated_at', 'province_code', 'equity_code'].includes(c),
);
