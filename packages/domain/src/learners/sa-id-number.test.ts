import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../common/errors.js';
import { SaIdNumber, luhnCheckDigit, luhnValid } from './sa-id-number.js';

const TODAY = new Date('2026-06-01T00:00:00Z');

describe('SaIdNumber: known valid and invalid ID numbers', () => {
  it.each([
    ['9001049818080', '1990-01-04', 'M', 'citizen'],
    ['1012311412187', '2010-12-31', 'F', 'permanent_resident'],
    ['7311190013080', '1973-11-19', 'F', 'citizen'],
    ['9202295029188', '1992-02-29', 'M', 'permanent_resident'],
    ['7111207908003', '1971-11-20', 'M', 'citizen'],
    ['7401308315053', '1974-01-30', 'M', 'citizen'],
    ['8001015009087', '1980-01-01', 'M', 'citizen'],
  ])('%s is valid: %s, %s, %s', (id, dateOfBirth, gender, citizenship) => {
    expect(SaIdNumber.parse(id, 'idNumber', TODAY)).toBe(id);
    expect(SaIdNumber.factsOf(id, TODAY)).toEqual({ dateOfBirth, gender, citizenship });
  });

  it.each([
    ['9001049881080', /Luhn/],
    ['9002302419087', /real date/],
    ['9001049881a83', /13 digits/],
    ['90010498813', /13 digits/],
    ['6107310094082', /Luhn/],
    ['9912010000081', /Luhn/],
  ])('%s is invalid (%s)', (id, reason) => {
    expect(() => SaIdNumber.parse(id, 'idNumber', TODAY)).toThrow(reason);
  });

  it('refuses citizenship digit 2 even with a correct check digit', () => {
    const first12 = '900104981828';
    const id = first12 + luhnCheckDigit(first12);
    expect(luhnValid(id)).toBe(true);
    expect(() => SaIdNumber.parse(id, 'idNumber', TODAY)).toThrow(/citizenship/);
  });

  it('reports the field it was given, as a DomainError of kind invalid', () => {
    try {
      SaIdNumber.parse('123', 'saIdNumber', TODAY);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).kind).toBe('invalid');
      expect((e as DomainError).details[0]?.field).toBe('saIdNumber');
    }
  });

  it('refuses non-strings', () => {
    expect(() => SaIdNumber.parse(9001049818080, 'idNumber', TODAY)).toThrow(/13 digits/);
  });

  it('uses 20YY unless that date is in the future (the century rule)', () => {
    const id = (yymmdd: string) => `${yymmdd}58000${8}`.slice(0, 12);
    const withCheck = (yymmdd: string) => id(yymmdd) + luhnCheckDigit(id(yymmdd));
    expect(SaIdNumber.factsOf(withCheck('260601'), TODAY)?.dateOfBirth).toBe('2026-06-01');
    expect(SaIdNumber.factsOf(withCheck('260602'), TODAY)?.dateOfBirth).toBe('1926-06-02');
    expect(SaIdNumber.factsOf(withCheck('000229'), TODAY)?.dateOfBirth).toBe('2000-02-29');
  });
});

describe('SaIdNumber: property', () => {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const anyId = fc
    .record({
      date: fc.date({ min: new Date('1927-01-01T00:00:00Z'), max: TODAY, noInvalidDate: true }),
      sequence: fc.integer({ min: 0, max: 9999 }),
      citizenship: fc.constantFrom(0, 1),
      a: fc.integer({ min: 0, max: 9 }),
    })
    .map(({ date, sequence, citizenship, a }) => {
      const iso = date.toISOString().slice(0, 10);
      const first12 = `${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${pad(sequence, 4)}${citizenship}${a}`;
      return { id: first12 + luhnCheckDigit(first12), iso, sequence, citizenship };
    });

  it('every generated valid ID parses, with the facts it was built from', () => {
    fc.assert(
      fc.property(anyId, ({ id, iso, sequence, citizenship }) => {
        expect(SaIdNumber.parse(id, 'idNumber', TODAY)).toBe(id);
        const facts = SaIdNumber.factsOf(id, TODAY)!;
        // The century is inferred: the generated date is never in the future and lies within the last 100 years.
        expect(facts.dateOfBirth).toBe(iso);
        expect(facts.gender).toBe(sequence < 5000 ? 'F' : 'M');
        expect(facts.citizenship).toBe(citizenship === 0 ? 'citizen' : 'permanent_resident');
      }),
      { numRuns: 500 },
    );
  });

  it('changing the check digit makes it invalid', () => {
    fc.assert(
      fc.property(anyId, fc.integer({ min: 1, max: 9 }), ({ id }, delta) => {
        const wrong = id.slice(0, 12) + String((Number(id[12]) + delta) % 10);
        expect(() => SaIdNumber.parse(wrong, 'idNumber', TODAY)).toThrow(/Luhn/);
      }),
      { numRuns: 300 },
    );
  });
});
