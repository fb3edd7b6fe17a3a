import { DomainError, type ErrorDetail } from '@fundi/domain';
import type { z } from 'zod';

/**
 * Characters no field may hold: C0 controls other than tab, line feed and carriage return, DEL and C1 controls,
 * the bidirectional overrides and isolates (which disguise text), and lone surrogates (not text at all). They
 * would corrupt fixed-width regulator files and mislead readers; Postgres refuses NUL outright.
 */
const FORBIDDEN =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Every string in `input` that holds a forbidden character, as field details (path `a.b.0`). */
export function unsafeText(input: unknown, path: string, out: ErrorDetail[] = []): ErrorDetail[] {
  if (typeof input === 'string') {
    if (FORBIDDEN.test(input))
      out.push({ field: path, message: 'contains a control character, a direction override or an unpaired surrogate' });
  } else if (Array.isArray(input)) {
    for (const [i, v] of input.entries()) unsafeText(v, path ? `${path}.${i}` : String(i), out);
  } else if (input !== null && typeof input === 'object') {
    for (const [k, v] of Object.entries(input)) {
      const field = path ? `${path}.${k}` : k;
      if (FORBIDDEN.test(k)) out.push({ field, message: 'is a field name with a control character' });
      else unsafeText(v, field, out);
    }
  }
  return out;
}

/** A person-readable message for one zod issue. */
function messageOf(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.code === 'invalid_type') {
    let value: unknown = input;
    for (const k of issue.path)
      value = value == null ? undefined : (value as Record<PropertyKey, unknown>)[k as PropertyKey];
    if (value === undefined) return 'is required';
    const expected = String(issue.expected);
    return `must be ${/^[aeiou]/.test(expected) ? 'an' : 'a'} ${expected}`;
  }
  return issue.message;
}

/**
 * Parses `input` with `schema`; every issue becomes a field detail of one DomainError (invalid input). Text with
 * forbidden characters is refused first, the same way on every database.
 */
export function validate<S extends z.ZodType>(
  schema: S,
  input: unknown,
  where: 'body' | 'query' | 'path',
): z.output<S> {
  const unsafe = unsafeText(input, '');
  if (unsafe.length) throw DomainError.invalidMany(unsafe);
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const details: ErrorDetail[] = [];
  for (const issue of r.error.issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys)
        details.push({
          field: base ? `${base}.${k}` : k,
          message: `is not a known ${where === 'body' ? 'field' : 'parameter'}`,
        });
    } else {
      details.push({ field: base || where, message: messageOf(issue, input) });
    }
  }
  throw DomainError.invalidMany(details);
}
