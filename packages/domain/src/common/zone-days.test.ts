import { describe, expect, it } from 'vitest';
import { addDays, dayIn, dayStartIn } from './zone-days.js';

describe('days in a time zone', () => {
  it('tells the day it is in the zone, which differs from UTC near midnight', () => {
    const at = new Date('2026-06-30T22:30:00.000Z');
    expect(dayIn(at, 'UTC')).toBe('2026-06-30');
    expect(dayIn(at, 'Africa/Johannesburg')).toBe('2026-07-01');
    expect(dayIn(new Date('2026-07-01T03:00:00.000Z'), 'America/New_York')).toBe('2026-06-30');
  });

  it('counts days across months and years', () => {
    expect(addDays('2026-07-01', -30)).toBe('2026-06-01');
    expect(addDays('2026-12-15', 30)).toBe('2027-01-14');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
  });

  it('gives the instant a day begins in the zone, daylight saving included', () => {
    expect(dayStartIn('2026-07-01', 'Africa/Johannesburg')).toBe('2026-06-30T22:00:00.000Z');
    expect(dayStartIn('2026-07-01', 'UTC')).toBe('2026-07-01T00:00:00.000Z');
    // New York: UTC-4 in summer, UTC-5 in winter.
    expect(dayStartIn('2026-07-01', 'America/New_York')).toBe('2026-07-01T04:00:00.000Z');
    expect(dayStartIn('2026-01-15', 'America/New_York')).toBe('2026-01-15T05:00:00.000Z');
    // The day daylight saving begins (8 March 2026, 02:00) still begins at midnight, UTC-5.
    expect(dayStartIn('2026-03-08', 'America/New_York')).toBe('2026-03-08T05:00:00.000Z');
  });
});
