import { DomainError } from './errors.js';

/**
 * The text rule (docs/api.md, "Text"), the same for every way data comes in (the API, imports, HR sync, the
 * dashboard): no C0 control characters other than tab, line feed and carriage return, no DEL or C1 controls, no
 * bidirectional overrides or isolates (U+202A-202E, U+2066-2069: they disguise text, `exe.pdf` shown for
 * `fdp.exe`), no unpaired surrogates (not text at all). They would corrupt fixed-width regulator files and mislead
 * readers; Postgres refuses NUL outright.
 */
export const UNSAFE_TEXT =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The characters a file name may not hold: those of the text rule, and tab, line feed and carriage return too. */
const UNSAFE_IN_FILE_NAME =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const EVERY_UNSAFE_IN_FILE_NAME = new RegExp(UNSAFE_IN_FILE_NAME.source, 'g');

export const UNSAFE_TEXT_MESSAGE = 'contains a control character, a direction override or an unpaired surrogate';
export const UNSAFE_FILE_NAME_MESSAGE =
  'contains a control character, a line break, a direction override or an unpaired surrogate';

export function isSafeText(value: string): boolean {
  return !UNSAFE_TEXT.test(value);
}

/** `value` when it keeps the text rule, else invalid input naming `field`. */
export function safeText(value: string, field: string): string {
  if (UNSAFE_TEXT.test(value)) throw DomainError.invalid(field, UNSAFE_TEXT_MESSAGE, 'unsafe_text');
  return value;
}

/** A file name keeps the text rule and holds no line break or tab either (it ends up in headers and ZIP entries). */
export function isSafeFileName(value: string): boolean {
  return !UNSAFE_IN_FILE_NAME.test(value);
}

/**
 * A file name as it may be written out (`Content-Disposition`, ZIP entry names): every character a file name may
 * not hold becomes `_`. Names are checked when they come in; this keeps what is written out safe whatever is stored.
 */
export function displayableFileName(value: string): string {
  return value.replace(EVERY_UNSAFE_IN_FILE_NAME, '_');
}
