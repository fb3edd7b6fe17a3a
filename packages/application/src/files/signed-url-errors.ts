import { DomainError } from '@fundi/domain';

/**
 * A signed URL refused, whatever it signs (an upload, a file, a bundle, a statement; docs/api.md, "Errors"): altered,
 * foreign or used.
 */
export const invalidUrl = () =>
  new DomainError(
    'forbidden',
    'signed_url_invalid',
    'The signed URL is not valid: it was altered, is not for this tenant, or was used already',
  );
/** A signed URL past its expiry. */
export const expiredUrl = () =>
  new DomainError('forbidden', 'signed_url_expired', 'The signed URL has expired: ask for a new one');
