import { ALTERNATE_ID_TYPES, NLRD_CODES, type LearnerProfile } from '@fundi/domain/learners';
import { IsoDateString, Instant, Timestamp, z } from '../schemas/common.js';

const codeOf = (field: keyof typeof NLRD_CODES, description: string) =>
  z.string().openapi({
    description: `${description}. NLRD code: ${NLRD_CODES[field].join(', ')}`,
    enum: [...NLRD_CODES[field], null],
  });

const Address = z
  .object({
    line1: z.string().nullable().optional(),
    line2: z.string().nullable().optional(),
    line3: z.string().nullable().optional(),
    postalCode: z.string().nullable().optional().openapi({ description: '4 digits', example: '2001' }),
  })
  .strict()
  .openapi('Address');

/**
 * Optional learner fields; `null` clears one on update. Value rules are checked by the domain. Every field of the
 * domain's `LearnerProfile` must be here (and nothing else): the `satisfies` below fails to compile otherwise.
 */
const profile = {
  alternateId: z.string().nullable().openapi({
    description:
      'Passport, refugee, work-permit or birth-certificate number, for a learner without an SA ID number (max 20; stored upper-case). Exactly one of idNumber and alternateId identifies a learner.',
    example: 'A12345678',
  }),
  alternateIdType: z
    .string()
    .nullable()
    .openapi({
      description: `Type of alternateId (QCTO01 code in brackets): ${Object.entries(ALTERNATE_ID_TYPES)
        .map(([k, v]) => `${k} (${v})`)
        .join(', ')}`,
      enum: [...Object.keys(ALTERNATE_ID_TYPES), null],
    }),
  middleName: z.string().nullable(),
  email: z.string().nullable().openapi({ format: 'email', example: 'thandi.nkosi@example.co.za' }),
  mobile: z.string().nullable().openapi({
    description: 'South African mobile; +27XXXXXXXXX or 0XXXXXXXXX, stored as E.164',
    example: '+27821234567',
  }),
  phone: z.string().nullable().openapi({ description: 'Landline, digits' }),
  title: codeOf('title', 'Title'),
  equityCode: codeOf('equityCode', 'Population group (special personal information, POPIA s26)'),
  nationalityCode: codeOf('nationalityCode', 'Nationality'),
  homeLanguageCode: codeOf('homeLanguageCode', 'Home language'),
  citizenResidentStatusCode: codeOf('citizenResidentStatusCode', 'Citizen / resident status'),
  socioeconomicStatusCode: codeOf('socioeconomicStatusCode', 'Socio-economic status'),
  disabilityStatusCode: codeOf('disabilityStatusCode', 'Disability status'),
  disabilityRating: codeOf('disabilityRating', 'Disability rating'),
  immigrantStatus: codeOf('immigrantStatus', 'Immigrant status'),
  homeAddress: z.union([Address, z.null()]),
  postalAddress: z.union([Address, z.null()]),
  provinceCode: codeOf('provinceCode', 'Province'),
  statssaAreaCode: z.string().nullable().openapi({ description: 'Stats SA area code (max 20)' }),
  popiActAgree: z.boolean().nullable().openapi({ description: 'POPI Act consent given' }),
  popiActDate: IsoDateString.nullable().openapi({ description: 'Date of POPI Act consent' }),
  employer: z.string().nullable(),
  employeeRef: z.string().nullable().openapi({ description: 'Employee identifier in the HR system' }),
  department: z.string().nullable(),
  jobTitle: z.string().nullable(),
} satisfies Record<keyof LearnerProfile, z.ZodType>;

const optionalProfile = Object.fromEntries(
  Object.entries(profile).map(([k, v]) => [k, (v as z.ZodType).nullable().optional()]),
) as {
  [K in keyof typeof profile]: z.ZodOptional<z.ZodNullable<(typeof profile)[K]>>;
};

const idNumber = z.string().openapi({
  description: '13-digit South African ID number (date, citizenship digit, Luhn check)',
  example: '9001049818080',
});

const explicitDob = IsoDateString.openapi({
  description: 'Required with alternateId; with an SA ID number it may be given but must agree with the number',
});
const explicitGender = z.enum(['M', 'F']).openapi({
  description: 'Required with alternateId; with an SA ID number it may be given but must agree with the number',
});

/** The learner's own choices about being contacted, settable on create and update alike. */
const contactChoices = {
  whatsappConsent: z
    .boolean()
    .optional()
    .openapi({ description: 'The learner agrees to WhatsApp messages (the service records when)' }),
  emailOptOut: z.boolean().optional().openapi({ description: 'The learner wants no email' }),
};

export const LearnerCreate = z
  .object({
    firstName: z.string().openapi({ example: 'Thandi' }),
    lastName: z.string().openapi({ example: 'Nkosi' }),
    idNumber: idNumber.optional(),
    saIdNumber: idNumber
      .optional()
      .openapi({ description: 'Alias of idNumber (HR mapping spelling); if both are given they must agree' }),
    dateOfBirth: explicitDob.optional(),
    gender: explicitGender.optional(),
    ...optionalProfile,
    ...contactChoices,
  })
  .strict()
  .openapi('LearnerCreate');

export const LearnerUpdate = z
  .object({
    firstName: z.string().optional(),
    lastName: z.string().optional(),
    idNumber: idNumber
      .nullable()
      .optional()
      .openapi({ description: 'null removes it (an alternateId must then be set)' }),
    saIdNumber: idNumber.nullable().optional(),
    dateOfBirth: explicitDob.optional(),
    gender: explicitGender.optional(),
    ...optionalProfile,
    ...contactChoices,
  })
  .strict()
  .openapi('LearnerUpdate');

const nullableOut = Object.fromEntries(Object.entries(profile).map(([k, v]) => [k, (v as z.ZodType).nullable()])) as {
  [K in keyof typeof profile]: z.ZodNullable<(typeof profile)[K]>;
};

export const LearnerOut = z
  .object({
    id: z.string().openapi({ example: 'lrn_01jd2x9k3m4n5p6q7r8s9t0v1w' }),
    firstName: z.string(),
    lastName: z.string(),
    idNumber: idNumber.nullable().openapi({ description: 'SA ID number; null for a learner with an alternateId' }),
    dateOfBirth: IsoDateString.openapi({ description: 'Derived from the ID number, or as given with an alternateId' }),
    gender: z.enum(['M', 'F']).openapi({ description: 'Derived from the ID number, or as given with an alternateId' }),
    citizenship: z
      .enum(['citizen', 'permanent_resident'])
      .nullable()
      .openapi({ description: 'Derived from the ID number; null for a learner with an alternateId' }),
    ...nullableOut,
    whatsappConsent: z.boolean(),
    whatsappConsentAt: Timestamp.nullable().openapi({ description: 'When consent was given; null without it' }),
    emailOptOut: z.boolean(),
    contactUpdateNeeded: z
      .boolean()
      .openapi({ description: 'Mail to the learner bounced for good; cleared when the email changes (read-only)' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('Learner');

export const LearnerListQuery = z
  .object({
    search: z.string().max(100).optional().openapi({
      description:
        'Words that must all match (names in any order and case, email, a prefix of the ID number or alternative ID, the employee reference), or a South African mobile number in any form',
    }),
    employeeRef: z.string().max(100).optional(),
    createdFrom: Instant.optional().openapi({ description: 'Created at or after (inclusive)' }),
    createdTo: Instant.optional().openapi({
      description: 'Created at or before (inclusive); a bare date includes that whole day',
    }),
    updatedFrom: Instant.optional().openapi({
      description: 'Changed at or after (inclusive): incremental sync; see docs/api.md "Incremental sync"',
    }),
    updatedTo: Instant.optional().openapi({
      description: 'Changed at or before (inclusive); a bare date includes that whole day',
    }),
  })
  .strict();
