import type { LearnerSnapshot } from '../learners/learner.js';
import { emptyProfile } from '../learners/learner-fields.js';
import type { AssessmentSnapshot } from '../training/assessment.js';
import type { EnrolmentSnapshot } from '../training/enrolment.js';
import type { ProgrammeSnapshot } from '../training/programme.js';
import type { RegulatorSettings } from '../exports/regulator-settings.js';

/** The fixed data set of the golden QCTO files: ten learners covering the cases the files must handle. */
export const GOLDEN_DATE = '2026-06-01';
export const GOLDEN_TENANT = 'ten_golden';

export const GOLDEN_SETTINGS: RegulatorSettings = {
  sdpCode: 'SDP0012345',
  assessmentPartnerCode: 'AQP-0099',
  assessmentCentreCode: 'AC-7788',
  readinessTypeId: '4',
  employmentStatusDefault: '03',
  achievementTypeId: '01',
  entryRequirementStatus: '01',
  flcStatus: '06',
  statementOfResultsStatus: '02',
};

export const GOLDEN_PROGRAMME: ProgrammeSnapshot = {
  id: 'prg_golden',
  tenantId: GOLDEN_TENANT,
  code: 'OC-SD-5',
  name: 'Occupational Certificate: Software Developer',
  type: 'occupational_qualification',
  qualificationId: '118707',
  nqfLevel: 5,
  modules: [
    { code: '251201-005-00-KM-01', name: 'Computers and computing systems', kind: 'knowledge', credits: 12 },
    { code: '251201-005-00-PM-01', name: 'Use a computer', kind: 'practical', credits: 8 },
    { code: '251201-005-00-WM-01', name: 'Work experience', kind: 'workplace', credits: 20 },
  ],
  status: 'active',
  retiredAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
} as ProgrammeSnapshot;

/** Every QCTO01 field a South African citizen needs to be ready for the files, besides names and ID. */
export const GOLDEN_READY_PROFILE = {
  title: 'Mr',
  equityCode: 'BA',
  nationalityCode: 'SA',
  homeLanguageCode: 'Zul',
  citizenResidentStatusCode: 'SA',
  socioeconomicStatusCode: '01',
  disabilityStatusCode: 'N',
  immigrantStatus: '03',
  homeAddress: { line1: '12 Vilakazi Street', line2: 'Orlando West', line3: 'Soweto', postalCode: '1804' },
  provinceCode: '7',
  statssaAreaCode: '798',
  popiActAgree: true,
  popiActDate: '2026-01-15',
} satisfies Partial<LearnerSnapshot>;

const complete = {
  ...emptyProfile(),
  tenantId: GOLDEN_TENANT,
  ...GOLDEN_READY_PROFILE,
  postalAddress: { line1: 'PO Box 4411', line2: null, line3: 'Johannesburg', postalCode: '2000' },
  employer: 'Acme Engineering',
  createdAt: '2026-01-20T08:00:00.000Z',
  updatedAt: '2026-01-20T08:00:00.000Z',
} satisfies Partial<LearnerSnapshot>;

const learner = (n: number, o: Partial<LearnerSnapshot>): LearnerSnapshot =>
  ({
    ...complete,
    id: `lrn_golden${String(n).padStart(2, '0')}`,
    firstName: 'Sipho',
    lastName: 'Dlamini',
    idNumber: null,
    alternateId: null,
    alternateIdType: null,
    citizenship: null,
    ...o,
  }) as LearnerSnapshot;

export const GOLDEN_LEARNERS: LearnerSnapshot[] = [
  learner(1, {
    idNumber: '9001049818080',
    dateOfBirth: '1990-01-04',
    gender: 'M',
    citizenship: 'citizen',
    middleName: 'Themba',
    mobile: '+27821234567',
    phone: '0114561234',
    email: 'sipho.dlamini@example.co.za',
  }),
  learner(2, {
    title: 'Ms',
    firstName: 'Zoë',
    lastName: "O'Neil-Botha",
    idNumber: '7311190013080',
    dateOfBirth: '1973-11-19',
    gender: 'F',
    citizenship: 'citizen',
    equityCode: 'Wh',
    homeLanguageCode: 'Afr',
    postalAddress: null,
    socioeconomicStatusCode: '02',
    employer: null,
    email: 'zoe+work@example.co.za',
    provinceCode: '1',
  }),
  learner(3, {
    firstName: 'Tendai',
    lastName: 'Moyo',
    alternateId: 'FN123456',
    alternateIdType: 'passport',
    dateOfBirth: '1995-03-02',
    gender: 'M',
    nationalityCode: 'ZIM',
    citizenResidentStatusCode: 'O',
    immigrantStatus: '01',
    equityCode: 'BA',
    homeLanguageCode: 'Oth',
    socioeconomicStatusCode: 'U',
  }),
  learner(4, {
    title: 'Mrs',
    firstName: 'Amani',
    lastName: 'Mukendi',
    alternateId: 'RSA-REF-99881',
    alternateIdType: 'refugee',
    dateOfBirth: '1988-09-30',
    gender: 'F',
    nationalityCode: 'ZAI',
    citizenResidentStatusCode: 'O',
    immigrantStatus: '02',
    homeLanguageCode: 'Oth',
    provinceCode: '5',
  }),
  learner(5, {
    firstName: 'Pieter',
    lastName: 'van der Merwe',
    idNumber: '8001015009087',
    dateOfBirth: '1980-01-01',
    gender: 'M',
    citizenship: 'citizen',
    equityCode: 'Wh',
    homeLanguageCode: 'Afr',
    disabilityStatusCode: '01',
    disabilityRating: '02',
  }),
  learner(6, {
    firstName: 'Lerato',
    lastName: 'Mokoena',
    title: 'Miss',
    idNumber: '9202295029188',
    dateOfBirth: '1992-02-29',
    gender: 'M',
    citizenship: 'permanent_resident',
    citizenResidentStatusCode: 'PR',
    homeLanguageCode: 'Ses',
  }),
  learner(7, {
    firstName: 'Nomsa',
    lastName: 'Khumalo',
    idNumber: '7111207908003',
    dateOfBirth: '1971-11-20',
    gender: 'M',
    citizenship: 'citizen',
    equityCode: null,
    homeAddress: null,
    postalAddress: null,
  }),
  learner(8, {
    firstName: 'Kagiso',
    lastName: 'Molefe',
    idNumber: '7401308315053',
    dateOfBirth: '1974-01-30',
    gender: 'M',
    citizenship: 'citizen',
    disabilityStatusCode: '04',
    disabilityRating: null,
    homeLanguageCode: 'U',
  }),
  learner(9, {
    firstName: 'Thabo',
    lastName: 'Nkosi',
    idNumber: '1012311412187',
    dateOfBirth: '2010-12-31',
    gender: 'M',
    citizenship: 'permanent_resident',
  }),
  learner(10, {
    firstName: 'Bongani2',
    lastName: 'Zulu',
    alternateId: 'WP-55501',
    alternateIdType: 'work_permit',
    dateOfBirth: '1999-05-05',
    gender: 'M',
    nationalityCode: 'MOZ',
    popiActAgree: null,
  }),
];

const enrolment = (l: LearnerSnapshot, o: Partial<EnrolmentSnapshot> = {}): EnrolmentSnapshot => ({
  id: l.id.replace('lrn_', 'enr_'),
  tenantId: GOLDEN_TENANT,
  learnerId: l.id,
  programmeId: GOLDEN_PROGRAMME.id,
  programmeCode: GOLDEN_PROGRAMME.code,
  startDate: '2026-02-01',
  expectedEndDate: '2026-11-30',
  fundingSource: null,
  status: 'in_progress',
  achievementDate: null,
  createdAt: '2026-02-01T08:00:00.000Z',
  updatedAt: '2026-02-01T08:00:00.000Z',
  ...o,
});

export const GOLDEN_ENROLMENTS: EnrolmentSnapshot[] = GOLDEN_LEARNERS.map((l, i) =>
  i === 5 ? enrolment(l, { status: 'withdrawn' }) : i === 2 ? enrolment(l, { startDate: '2026-01-10' }) : enrolment(l),
);

let assessmentSeq = 0;
const result = (i: number, module: number, outcome: 'C' | 'NYC', date: string): AssessmentSnapshot => {
  const e = GOLDEN_ENROLMENTS[i]!;
  return {
    id: `asm_golden${++assessmentSeq}`,
    tenantId: GOLDEN_TENANT,
    learnerId: e.learnerId,
    enrolmentId: e.id,
    programmeId: GOLDEN_PROGRAMME.id,
    programmeCode: GOLDEN_PROGRAMME.code,
    moduleCode: GOLDEN_PROGRAMME.modules[module]!.code,
    assessmentType: 'summative',
    outcome,
    assessmentDate: date,
    assessorId: null,
    recordedBy: 'key_golden',
    createdAt: `${date}T10:00:00.000Z`,
    moderation: null,
  };
};

export const GOLDEN_ASSESSMENTS: AssessmentSnapshot[] = [
  result(0, 0, 'C', '2026-03-10'),
  result(0, 1, 'NYC', '2026-04-02'),
  result(2, 0, 'NYC', '2026-03-01'),
  result(2, 0, 'C', '2026-03-20'),
  result(2, 1, 'C', '2026-04-15'),
  result(3, 0, 'C', '2026-03-11'),
  result(4, 2, 'NYC', '2026-05-05'),
  result(5, 0, 'C', '2026-03-12'),
  result(5, 1, 'NYC', '2026-04-12'),
];
