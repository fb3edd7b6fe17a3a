import { sendFailure, type SendFailure } from '@fundi/domain/notifications';

// Cloud API error codes (developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes).
/** The number cannot receive the message: undeliverable, not in the test allow-list, or our own number. */
const RECIPIENT = new Set([131026, 131030, 131021]);
/** Throttling: app or account call limits, the per-number throughput, spam and per-pair limits. */
const THROTTLED = new Set([4, 80007, 130429, 131048, 131056]);
/** Meta's side is having trouble: unknown or temporary errors, service unavailable. */
const TEMPORARY = new Set([1, 2, 131000, 131016, 133004]);

interface CloudError {
  error?: { code?: unknown; message?: unknown; error_data?: { details?: unknown } };
}

/**
 * Classifies a Cloud API error answer. The error code decides where it is known (a number that cannot receive is
 * `invalid_recipient`; throttling `rate_limited`; Meta-side trouble `unavailable`); otherwise the status does
 * (429 `rate_limited`, 5xx `unavailable`, any other `rejected`: credentials, template, parameters).
 */
export function cloudApiFailure(status: number, answer: unknown, retryAfter: string | null, now: number): SendFailure {
  const err = (answer as CloudError | null)?.error;
  const code = typeof err?.code === 'number' ? err.code : null;
  const words = [err?.message, err?.error_data?.details].filter((w) => typeof w === 'string').join(': ');
  const detail = `HTTP ${status}${words ? ` ${words}` : ''}`;
  const wait = retryAfterMs(retryAfter, now);
  if (code !== null && RECIPIENT.has(code)) return sendFailure('invalid_recipient', code, detail);
  if (status === 429 || (code !== null && THROTTLED.has(code)))
    return sendFailure('rate_limited', code ?? status, detail, wait);
  if (status >= 500 || (code !== null && TEMPORARY.has(code)))
    return sendFailure('unavailable', code ?? status, detail, wait);
  return sendFailure('rejected', code ?? status, detail);
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from `now`; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
