/**
 * HTML built with one tagged template: every interpolated value is escaped unless it is already `Html` (made by
 * this template or `raw`), so a learner named `<img src=x onerror=alert(1)>` is text wherever it appears.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Whether a string has a character to escape: most (names, dates, codes, ids) have none and are returned as they are. */
const SPECIAL = /[&<>"']/;

export function escapeHtml(s: string): string {
  return SPECIAL.test(s) ? s.replace(/[&<>"']/g, (c) => ESCAPES[c]!) : s;
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function render(v: Value): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Html) return v.value;
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Markup that is already safe (constants of this module only). */
export const raw = (s: string) => new Html(s);

export const when = (cond: unknown, part: () => Html): Html | null => (cond ? part() : null);

const formats = new Map<string, Intl.DateTimeFormat>();

/** An instant as `2026-11-27 15:33 SAST`: in `zone` (the tenant's time zone; stored times are UTC). */
export function dateTime(iso: string | null | undefined, zone = 'UTC'): string {
  if (!iso) return '-';
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-ZA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    formats.set(zone, f);
  }
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(new Date(iso))) p[part.type] = part.value;
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} ${p.timeZoneName}`;
}

export function bytes(n: number | null): string {
  if (n === null) return 'no limit';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(1)} ${units[u]}`;
}
