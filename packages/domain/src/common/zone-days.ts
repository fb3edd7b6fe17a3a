/**
 * Calendar days in a time zone (an IANA name the runtime knows): which day it is there, days before and after one,
 * and the instant a day begins there. The dashboard's "today" is the tenant's (docs/dashboard.md, "Pages").
 */

const DAY_MS = 86_400_000;
const formats = new Map<string, Intl.DateTimeFormat>();

function format(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(zone, f);
  }
  return f;
}

/** The wall-clock time in `zone` at `at`, read as if it were UTC (milliseconds). */
function wallClock(at: number, zone: string): number {
  const p: Record<string, number> = {};
  for (const part of format(zone).formatToParts(new Date(at)))
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
}

/** The day (YYYY-MM-DD) it is in `zone` at `at`. */
export function dayIn(at: Date, zone: string): string {
  return new Date(wallClock(at.getTime(), zone)).toISOString().slice(0, 10);
}

/** The day `days` after `day` (before it when negative), YYYY-MM-DD. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The instant (ISO 8601, UTC) `day` begins in `zone`: its first moment there, offset changes included. */
export function dayStartIn(day: string, zone: string): string {
  const local = Date.parse(`${day}T00:00:00.000Z`);
  // The zone's offset near that moment, then once more at the guess (a change of offset between them moves it).
  let at = local - (wallClock(local, zone) - local);
  at = local - (wallClock(at, zone) - at);
  return new Date(at).toISOString();
}
