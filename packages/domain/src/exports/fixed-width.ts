/** One field of a fixed-width record: left-justified, space-padded, cut to its length. */
export function fixed(value: string | null | undefined, length: number): string {
  const v = value ?? '';
  return v.length >= length ? v.slice(0, length) : v + ' '.repeat(length - v.length);
}

/** `YYYY-MM-DD` (or an instant) as `yyyyMMdd`; '' for none. */
export function yyyymmdd(date: string | null | undefined): string {
  return date ? date.slice(0, 10).replaceAll('-', '') : '';
}

/** Text that `ascii` leaves as it is: printable ASCII only (most names and addresses). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Text as the regulator's files take it: accented letters become their ASCII letters (é -> e), anything else
 * outside printable ASCII is dropped (the NLRD files are ASCII; SETA validators strip or replace the rest).
 */
export function ascii(value: string | null | undefined): string {
  if (!value) return '';
  if (PRINTABLE_ASCII.test(value)) return value;
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '');
}

/** Record terminator of the QCTO files. */
export const CRLF = '\r\n';

/** `QCTO01-` + SDP code padded to 20 + `yyyyMMdd` + `.txt`, literally as the layout says (spaces included). */
export function qctoFileName(file: 'QCTO01' | 'QCTO02', sdpCode: string | null, on: string): string {
  return `${file}-${fixed(sdpCode ?? '', 20)}${yyyymmdd(on)}.txt`;
}
