import { DomainError } from '../common/errors.js';

export interface UrlPolicy {
  /** FUNDI_WEBHOOK_ALLOW_HTTP: plain http is accepted (local receivers, tests). */
  allowHttp: boolean;
}

/**
 * A receiver URL: absolute http(s), https unless the operator allows http, no credentials. Where it points is
 * checked at connect time, not here, because DNS can change between now and the delivery.
 */
export function parseWebhookUrl(value: unknown, policy: UrlPolicy, field = 'url'): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048)
    throw DomainError.invalid(field, 'must be a URL of at most 2048 characters');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw DomainError.invalid(field, 'is not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw DomainError.invalid(field, 'must use https');
  if (url.protocol === 'http:' && !policy.allowHttp) throw DomainError.invalid(field, 'must use https');
  if (url.username || url.password) throw DomainError.invalid(field, 'must not carry credentials');
  url.hash = '';
  return url.toString();
}
