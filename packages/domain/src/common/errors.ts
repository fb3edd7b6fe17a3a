/**
 * The one error type of the core. Adapters and use cases throw it; only the HTTP layer maps `kind` to a status,
 * in one table per API form. `code` is stable and machine-readable; `details` name the offending fields.
 */
export type ErrorKind =
  | 'invalid'
  | 'not_found'
  | 'conflict'
  | 'forbidden'
  | 'unauthorized'
  | 'precondition'
  | 'rate_limited'
  | 'unavailable';

export interface ErrorDetail {
  field: string;
  message: string;
}

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly meta: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    // An expected outcome (404, 409, invalid input), not a bug: skip capturing a stack, which costs more than
    // the rest of a rejected request.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message, options);
    Error.stackTraceLimit = limit;
    this.name = 'DomainError';
  }

  static invalid(field: string, message: string, code = 'invalid_field'): DomainError {
    return new DomainError('invalid', code, message, [{ field, message }]);
  }

  static invalidMany(details: ErrorDetail[]): DomainError {
    const first = details[0];
    return new DomainError(
      'invalid',
      'invalid_request',
      first ? `${first.field}: ${first.message}` : 'Invalid request',
      details,
    );
  }

  static notFound(resource: string, id?: string): DomainError {
    return new DomainError(
      'not_found',
      `${resource}_not_found`,
      `${capitalise(resource)} not found`,
      [],
      id ? { id } : {},
    );
  }

  static conflict(
    code: string,
    message: string,
    details: ErrorDetail[] = [],
    meta: Record<string, unknown> = {},
  ): DomainError {
    return new DomainError('conflict', code, message, details, meta);
  }

  static forbidden(message: string, code = 'forbidden'): DomainError {
    return new DomainError('forbidden', code, message);
  }

  /**
   * The storage could not be reached (the database restarting or gone, a connection lost, a locked or failing
   * disk): the operation did not happen and may be tried again later. `outcomeUnknown`: the connection was lost
   * while a COMMIT was on its way, so the change may or may not have been saved (`meta.outcome: 'unknown'`, which
   * the API's error body carries). `cause` is the driver's error.
   */
  static storageUnavailable(cause: unknown, outcomeUnknown = false): DomainError {
    return outcomeUnknown
      ? new DomainError(
          'unavailable',
          STORAGE_OUTCOME_UNKNOWN,
          'The connection to the database was lost while the change was being saved: it may or may not have been saved. Read it back before trying again.',
          [],
          { outcome: 'unknown' },
          { cause },
        )
      : new DomainError(
          'unavailable',
          STORAGE_UNAVAILABLE,
          'The database cannot be reached just now; nothing was changed. Try again in a few seconds.',
          [],
          {},
          { cause },
        );
  }
}

/** Codes of `DomainError.storageUnavailable`: nothing was changed, or the COMMIT's outcome is unknown. */
export const STORAGE_UNAVAILABLE = 'storage_unavailable';
export const STORAGE_OUTCOME_UNKNOWN = 'storage_outcome_unknown';

/** Whether `e` says the storage could not be reached (`DomainError.storageUnavailable`), not that the work was wrong. */
export function isStorageUnavailable(e: unknown): e is DomainError {
  return e instanceof DomainError && e.kind === 'unavailable';
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, ' ');
}

export function isDomainError(e: unknown): e is DomainError {
  return e instanceof DomainError;
}

/** Runs one parser; a DomainError's field details go into `errors` (so one answer can name every failing field). */
export function collect<T>(errors: ErrorDetail[], fn: () => T): T | undefined {
  try {
    return fn();
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    errors.push(...e.details);
    return undefined;
  }
}
