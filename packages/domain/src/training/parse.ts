import { DomainError, type ErrorDetail } from '../shared/errors.js';

export function oneOf<T extends string>(allowed: readonly T[], value: unknown, field: string): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) throw DomainError.invalid(field, `must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** Runs parsers and collects their field errors, so one answer names every failing field. */
export function collecting(errors: ErrorDetail[]) {
  return <T>(fn: () => T): T | undefined => {
    try {
      return fn();
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      errors.push(...e.details);
      return undefined;
    }
  };
}
