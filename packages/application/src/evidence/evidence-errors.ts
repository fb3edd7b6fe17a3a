import { DomainError } from '@fundi/domain';

export const invalidUrl = () =>
  new DomainError(
    'forbidden',
    'signed_url_invalid',
    'The signed URL is not valid: it was altered, is not for this tenant, or was used already',
  );
export const expiredUrl = () =>
  new DomainError('forbidden', 'signed_url_expired', 'The signed URL has expired: ask for a new one');
export const quotaExceeded = (quota: number) =>
  new DomainError(
    'forbidden',
    'storage_quota_exceeded',
    `The tenant's storage quota of ${quota} bytes would be exceeded`,
    [],
    { quota },
  );
