import { DomainError, UNSAFE_TEXT, UNSAFE_TEXT_MESSAGE, type ErrorDetail } from '@fundi/domain';
import type { z } from 'zod';

/** The text rule (docs/api.md, "Text"), the domain's, for every field, parameter and path segment. */
const FORBIDDEN = UNSAFE_TEXT;

/** Every string in `input` that holds a forbidden character, as field details (path `a.b.0`). */
export function unsafeText(input: unknown, path: string, out: ErrorDetail[] = []): ErrorDetail[] {
  if (typeof input === 'string') {
    if (FORBIDDEN.test(input)) out.push({ field: path, message: UNSAFE_TEXT_MESSAGE });
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

/** Names that reach an object's prototype when used as keys: refused anywhere in an input (docs/api.md, "Text"). */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Every key of `input`, at any depth, that is a prototype name, as field details. */
export function prototypeKeys(input: unknown): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const todo: [unknown, string][] = [[input, '']];
  for (let i = 0; i < todo.length; i++) {
    const [value, path] = todo[i]!;
    if (value === null || typeof value !== 'object') continue;
    for (const [k, v] of Object.entries(value)) {
      const field = path ? `${path}.${k}` : k;
      if (PROTOTYPE_KEYS.has(k)) out.push({ field, message: 'is not an allowed field name' });
      else todo.push([v, field]);
    }
  }
  return out;
}

/**
 * True when `input` is an object of strings alone (path parameters, most queries) whose names and values all pass
 * the text rule and no name is a prototype name: what `unsafeText` and `prototypeKeys` would find nothing in,
 * checked without the arrays and paths they build. False sends the input through both, which name what is wrong.
 */
function plainTexts(input: unknown): boolean {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return false;
  for (const k in input) {
    if (!Object.hasOwn(input, k)) return false;
    const v = (input as Record<string, unknown>)[k];
    if (typeof v !== 'string' || PROTOTYPE_KEYS.has(k) || FORBIDDEN.test(k) || FORBIDDEN.test(v)) return false;
  }
  return true;
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
 * forbidden characters is refused first, the same way on every database, then keys named like an object's
 * prototype (`__proto__`, `constructor`, `prototype`), which a schema's records would otherwise take quietly.
 */
export function validate<S extends z.ZodType>(
  schema: S,
  input: unknown,
  where: 'body' | 'query' | 'path',
): z.output<S> {
  if (!plainTexts(input)) {
    const unsafe = unsafeText(input, '');
    if (unsafe.length) throw DomainError.invalidMany(unsafe);
    const reserved = prototypeKeys(input);
    if (reserved.length) throw DomainError.invalidMany(reserved);
  }
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
