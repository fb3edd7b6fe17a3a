import { addDays, dayIn } from '@fundi/domain';

/** How long without an assessment or evidence makes an open enrolment idle, and how far ahead deadlines are shown. */
export const WATCH_DAYS = 30;

/**
 * The days the overview's lists are about (YYYY-MM-DD): today in the tenant's time zone `zone`, `WATCH_DAYS` before
 * and `WATCH_DAYS` after it.
 */
export function watchWindow(now: Date, zone: string): { today: string; since: string; until: string } {
  const today = dayIn(now, zone);
  return { today, since: addDays(today, -WATCH_DAYS), until: addDays(today, WATCH_DAYS) };
}
