import { DomainError } from '@fundi/domain';

/** A well-formed signature header: `sha256=` and 64 hex digits. */
export const SIGNATURE = /^sha256=[0-9a-fA-F]{64}$/;
export const NOT_JSON = Symbol('not JSON');

/** 401 for a callback whose signature header is missing or does not match (the same answer either way). */
export const badSignature = (header: string) =>
  new DomainError('unauthorized', 'invalid_signature', `${header} is missing or does not match`);

/** The body as JSON, or `NOT_JSON`: a callback's body is read before its signature is checked, so it may be anything. */
export function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return NOT_JSON;
  }
}
