import type { DomainError, ErrorKind } from '@fundi/domain';

export interface FormCodes {
  A: string;
  B: string;
  status: number;
}

/** HTTP status and both forms' codes for each error kind (docs/api.md "Errors"). */
export const KIND_CODES: Record<ErrorKind, FormCodes> = {
  invalid: { A: 'validation_error', B: 'VALIDATION_ERROR', status: 0 /* per form: 422 or 400 */ },
  unauthorized: { A: 'unauthorized', B: 'UNAUTHORIZED', status: 401 },
  forbidden: { A: 'forbidden', B: 'FORBIDDEN', status: 403 },
  not_found: { A: 'not_found', B: 'NOT_FOUND', status: 404 },
  conflict: { A: 'conflict', B: 'CONFLICT', status: 409 },
  precondition: { A: 'conflict', B: 'CONFLICT', status: 409 },
  rate_limited: { A: 'rate_limited', B: 'RATE_LIMITED', status: 429 },
  // The database cannot be reached (restarting, gone, locked or failing): retry after `Retry-After` seconds.
  unavailable: { A: 'service_unavailable', B: 'SERVICE_UNAVAILABLE', status: 503 },
};

/** The status of a page (dashboard or portal) that failed with an error of `kind`: invalid input is 400 there. */
export const pageStatus = (kind: ErrorKind): number => (kind === 'invalid' ? 400 : KIND_CODES[kind].status);

/** `Retry-After` of a 503: a restarting database is usually back within seconds. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

/** Domain codes that have their own HTTP status and codes, whatever their kind (docs/api.md "Errors"). */
export const SPECIAL_CODES: Record<string, FormCodes> = {
  payload_too_large: { A: 'payload_too_large', B: 'FILE_TOO_LARGE', status: 413 },
  // One 413 pair for every oversized body, JSON or file, as the error table in docs/api.md has it.
  body_too_large: { A: 'payload_too_large', B: 'FILE_TOO_LARGE', status: 413 },
  method_not_allowed: { A: 'method_not_allowed', B: 'METHOD_NOT_ALLOWED', status: 405 },
  headers_too_large: { A: 'headers_too_large', B: 'HEADERS_TOO_LARGE', status: 431 },
  bad_request: { A: 'bad_request', B: 'BAD_REQUEST', status: 400 },
  request_timeout: { A: 'request_timeout', B: 'REQUEST_TIMEOUT', status: 408 },
  unsupported_media_type: { A: 'unsupported_media_type', B: 'UNSUPPORTED_FILE_TYPE', status: 415 },
  storage_quota_exceeded: { A: 'storage_quota_exceeded', B: 'STORAGE_QUOTA_EXCEEDED', status: 403 },
  // A signed URL is the file host's, not a form's: the same lowercase code wherever it is served.
  signed_url_expired: { A: 'signed_url_expired', B: 'signed_url_expired', status: 403 },
  signed_url_invalid: { A: 'signed_url_invalid', B: 'signed_url_invalid', status: 403 },
  range_not_satisfiable: { A: 'range_not_satisfiable', B: 'RANGE_NOT_SATISFIABLE', status: 416 },
};

export const INTERNAL: FormCodes = { A: 'internal_error', B: 'SERVER_ERROR', status: 500 };

export function codesFor(e: DomainError, validationStatus: number): FormCodes {
  const c = SPECIAL_CODES[e.code] ?? KIND_CODES[e.kind];
  return c.status === 0 ? { ...c, status: validationStatus } : c;
}
