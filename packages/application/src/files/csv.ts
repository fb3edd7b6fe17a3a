/** UTF-8 byte order mark: Excel then reads the file as UTF-8 (names such as Zoë, Nomvula Ngcobo-Müller). */
export const BOM = '\uFEFF';

const TRIGGER = /^[=+\-@\t\r]/;
const PHONE = /^\+\d+$/;
const NUMBER = /^[+-]?\d+(\.\d+)?$/;
const QUOTE = /[",\r\n]/;

/**
 * One CSV cell, by the rule of every CSV the service writes (docs/api.md, "Files in requests and answers"). A text that a spreadsheet would run as a formula (it begins with `=`,
 * `+`, `-`, `@`, tab or CR) is prefixed with `'`, unless it is wholly a phone number (`+` and digits) or a plain
 * number; then RFC 4180 quoting where needed.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let v = typeof value === 'string' ? value : String(value);
  if (TRIGGER.test(v) && !PHONE.test(v) && !NUMBER.test(v)) v = `'${v}`;
  return QUOTE.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
}

/** One CSV record with its CRLF. */
export function csvLine(values: readonly (string | number | boolean | null | undefined)[]): string {
  let out = '';
  for (let i = 0; i < values.length; i++) out += (i ? ',' : '') + csvCell(values[i]);
  return `${out}\r\n`;
}
