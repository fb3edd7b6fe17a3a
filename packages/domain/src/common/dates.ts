import { DomainError } from './errors.js';

/** A calendar date as `YYYY-MM-DD`; validated as a real date (leap years included). */
export type IsoDate = string & { readonly __brand: 'IsoDate' };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function isRealDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeap(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0));
}

export function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export const IsoDate = {
  parse(value: unknown, field: string): IsoDate {
    const m = typeof value === 'string' ? DATE.exec(value) : null;
    if (!m || !isRealDate(Number(m[1]), Number(m[2]), Number(m[3]))) {
      throw DomainError.invalid(field, 'must be a real date in the form YYYY-MM-DD');
    }
    return value as IsoDate;
  },
  fromDate(d: Date): IsoDate {
    return d.toISOString().slice(0, 10) as IsoDate;
  },
};
