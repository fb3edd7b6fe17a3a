import { DomainError, collect, type ErrorDetail } from '../common/errors.js';

export function oneOf<T extends string>(allowed: readonly T[], value: unknown, field: string): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value))
    throw DomainError.invalid(field, `must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** Runs parsers and collects their field errors, so one answer names every failing field. */
export function collecting(errors: ErrorDetail[]) {
  return <T>(fn: () => T): T | undefined => collect(errors, fn);
}
