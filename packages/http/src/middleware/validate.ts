import { DomainError, type ErrorDetail } from '@fundi/domain';
import type { z } from 'zod';

/** Parses `input` with `schema`; every issue becomes a field detail of one DomainError (invalid input). */
export function validate<S extends z.ZodType>(schema: S, input: unknown, where: 'body' | 'query' | 'path'): z.output<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const details: ErrorDetail[] = [];
  for (const issue of r.error.issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) details.push({ field: base ? `${base}.${k}` : k, message: `is not a known ${where === 'body' ? 'field' : 'parameter'}` });
    } else {
      details.push({ field: base || where, message: issue.message });
    }
  }
  throw DomainError.invalidMany(details);
}
