import { luhnCheckDigit } from '@fundi/domain/learners';

/** A valid, unique SA ID number for each n < 3,650,000 (date from 1970 onwards, sequence 0-9999). */
export function idNumberFor(n: number): string {
  const day = Math.floor(n / 10_000);
  const seq = n % 10_000;
  const d = new Date(Date.UTC(1970, 0, 1) + day * 86_400_000);
  const yymmdd = `${String(d.getUTCFullYear() % 100).padStart(2, '0')}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
  const first12 = `${yymmdd}${String(seq).padStart(4, '0')}08`;
  return first12 + luhnCheckDigit(first12);
}

/** `n` in base 26 written with a-z (names take letters only, in the regulator's files and a learner's checks). */
export const letters = (n: number): string =>
  n.toString(26).replace(/./g, (d) => String.fromCharCode(97 + Number.parseInt(d, 26)));

export function learnerInput(n: number): Record<string, unknown> {
  return {
    firstName: `First${n}`,
    lastName: `Last${n}`,
    idNumber: idNumberFor(n),
    email: `learner${n}@example.co.za`,
    mobile: '+27821234567',
    employeeRef: `E${n}`,
  };
}

/** A learner as the API answers it, for the bare-Koa baseline. */
export function sampleLearner(n: number): Record<string, unknown> {
  return {
    id: `lrn_01m7yt06qybpj4xf1ja3chk${String(n).padStart(3, '0')}`,
    ...learnerInput(n),
    dateOfBirth: '1970-01-01',
    gender: 'F',
    citizenship: 'citizen',
    middleName: null,
    phone: null,
    title: null,
    equityCode: null,
    nationalityCode: null,
    homeLanguageCode: null,
    citizenResidentStatusCode: null,
    socioeconomicStatusCode: null,
    disabilityStatusCode: null,
    disabilityRating: null,
    immigrantStatus: null,
    homeAddress: null,
    postalAddress: null,
    provinceCode: null,
    statssaAreaCode: null,
    popiActAgree: null,
    popiActDate: null,
    employer: null,
    department: null,
    jobTitle: null,
    createdAt: '2026-11-21T10:00:00.000Z',
    updatedAt: '2026-11-21T10:00:00.000Z',
  };
}
