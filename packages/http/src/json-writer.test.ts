import { LEARNER_VIEW_FIELDS, learnerView } from '@fundi/application/learners';
import type { LearnerSnapshot } from '@fundi/domain/learners';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonWriter } from './json-writer.js';
import { learnerJson } from './learners/learner-routes.js';

/** Any text, including quotes, backslashes, control characters, lone surrogates and characters past the BMP. */
const anyText = fc.string({
  unit: fc.oneof(
    fc.constantFrom('"', '\\', '\n', '\u0000', '\u001f', '\u007f', '\u2028', '\ud800', '\udfff', '\u{1f600}', 'é'),
    fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
    fc.constantFrom('a', 'Z', '0', ' ', '-'),
  ),
});
const anyValue = fc.oneof(
  anyText,
  fc.constant(null),
  fc.boolean(),
  fc.double(),
  fc.integer(),
  fc.record({ line1: fc.option(anyText), postalCode: fc.option(anyText) }),
  fc.date({ noInvalidDate: true }),
  fc.constant(undefined),
);

describe('jsonWriter', () => {
  it('writes the text JSON.stringify writes, for any values of the fields', () => {
    const write = jsonWriter(['id', 'name', 'flag', 'address', 'when']);
    fc.assert(
      fc.property(fc.tuple(anyValue, anyValue, anyValue, anyValue, anyValue), ([id, name, flag, address, when]) => {
        const o = { id, name, flag, address, when };
        expect(write(o)).toBe(JSON.stringify(o));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes an object of no fields as {}', () => {
    expect(jsonWriter([])({})).toBe('{}');
  });

  it("writes a learner's view as JSON.stringify does, every field in learnerView's order", () => {
    const s = fc.option(anyText, { nil: null });
    fc.assert(
      fc.property(
        fc.record({
          first: anyText,
          email: s,
          line1: s,
          flag: fc.boolean(),
          agree: fc.option(fc.boolean(), { nil: null }),
        }),
        (r) => {
          const view = learnerView(learner(r));
          expect(learnerJson(view)).toBe(JSON.stringify(view));
        },
      ),
      { numRuns: 500 },
    );
    expect(LEARNER_VIEW_FIELDS).toEqual(
      Object.keys(learnerView(learner({ first: 'A', email: null, line1: null, flag: false, agree: null }))),
    );
  });
});

function learner(r: {
  first: string;
  email: string | null;
  line1: string | null;
  flag: boolean;
  agree: boolean | null;
}): LearnerSnapshot {
  return {
    id: 'lrn_1',
    tenantId: 'ten_1',
    firstName: r.first,
    lastName: 'Last',
    idNumber: '7010280500085',
    alternateId: null,
    alternateIdType: null,
    dateOfBirth: '1970-10-28',
    gender: 'F',
    citizenship: 'citizen',
    middleName: r.line1,
    email: r.email,
    mobile: '+27821234567',
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
    homeAddress: r.line1 === null ? null : { line1: r.line1, line2: null, line3: r.email, postalCode: '0001' },
    postalAddress: null,
    provinceCode: null,
    statssaAreaCode: null,
    popiActAgree: r.agree,
    popiActDate: null,
    employer: null,
    employeeRef: r.email,
    department: null,
    jobTitle: null,
    whatsappConsent: r.flag,
    whatsappConsentAt: null,
    emailOptOut: !r.flag,
    contactUpdateNeeded: false,
    createdAt: '2026-11-28T05:00:48.909Z',
    updatedAt: '2026-11-28T05:00:48.909Z',
  };
}
