import { DomainError } from '../common/errors.js';
import { isRealDate, type IsoDate } from '../common/dates.js';

/** A South African ID number that passed every rule: 13 digits, a real date, citizenship 0/1, Luhn. */
export type SaIdNumber = string & { readonly __brand: 'SaIdNumber' };

export type Gender = 'M' | 'F';
export type Citizenship = 'citizen' | 'permanent_resident';

export interface SaIdFacts {
  dateOfBirth: IsoDate;
  gender: Gender;
  citizenship: Citizenship;
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The check digit that makes `first12` pass Luhn; used by test builders. */
export function luhnCheckDigit(first12: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(first12 + d)) return String(d);
  throw new Error('unreachable');
}

/**
 * Century rule (docs/api.md, "Learners"): 20YY unless that date lies in the future (relative to `today`), else 19YY.
 */
function birthYear(yy: number, mm: number, dd: number, today: Date): number | null {
  const year2000 = 2000 + yy;
  // YYYYMMDD as a number orders as the ISO date does (four-digit years), without building strings per row.
  const todayNum = today.getUTCFullYear() * 10_000 + (today.getUTCMonth() + 1) * 100 + today.getUTCDate();
  if (isRealDate(year2000, mm, dd) && year2000 * 10_000 + mm * 100 + dd <= todayNum) return year2000;
  if (isRealDate(1900 + yy, mm, dd)) return 1900 + yy;
  return null;
}

/** The two digits of `value` at `at` as a number (the number's 13 characters are digits, checked before). */
const twoDigits = (value: string, at: number) => (value.charCodeAt(at) - 48) * 10 + value.charCodeAt(at + 1) - 48;

/**
 * The year of birth in the number's first six digits (YYMMDD), or `null` when they are not a real date. Read digit
 * by digit: an import reads 100,000 numbers, each twice, and `slice` made a string per part.
 */
function yearOf(value: string, today: Date): number | null {
  return birthYear(twoDigits(value, 0), twoDigits(value, 2), twoDigits(value, 4), today);
}

export const SaIdNumber = {
  parse(value: unknown, field = 'idNumber', today: Date = new Date()): SaIdNumber {
    if (typeof value !== 'string' || !/^\d{13}$/.test(value)) {
      throw DomainError.invalid(field, 'must be exactly 13 digits', 'invalid_id_number');
    }
    if (yearOf(value, today) === null) {
      throw DomainError.invalid(field, 'does not contain a real date of birth', 'invalid_id_number');
    }
    const c = value.charAt(10);
    if (c !== '0' && c !== '1') {
      throw DomainError.invalid(field, 'citizenship digit must be 0 or 1', 'invalid_id_number');
    }
    if (!luhnValid(value)) {
      throw DomainError.invalid(field, 'fails the Luhn check digit', 'invalid_id_number');
    }
    return value as SaIdNumber;
  },

  /** Derived facts; `null` when the date part is not a real date. */
  factsOf(value: string, today: Date = new Date()): SaIdFacts | null {
    const year = yearOf(value, today);
    if (year === null) return null;
    return {
      // The month and day are the number's own two digits each (a real date, so already zero-padded).
      dateOfBirth: `${year}-${value.slice(2, 4)}-${value.slice(4, 6)}` as IsoDate,
      // The sequence digits (7-10) below 5000 are a woman's: the first of them below 5 is.
      gender: value.charCodeAt(6) < 53 ? 'F' : 'M',
      citizenship: value.charAt(10) === '0' ? 'citizen' : 'permanent_resident',
    };
  },
};
