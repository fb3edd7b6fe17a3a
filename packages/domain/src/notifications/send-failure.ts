/**
 * Why a send did not go through, classified once by the adapter so the worker never reads provider replies:
 * - `hard_bounce`: the mail server refused the recipient or the message for good (SMTP 5xx). Final.
 * - `soft_bounce`: the mail server refused for now (SMTP 4xx). Retryable.
 * - `invalid_recipient`: the messaging provider says the number cannot receive messages. Final.
 * - `rate_limited`: the provider asked us to slow down (HTTP 429 or its own throttling codes). Retryable.
 * - `unavailable`: no answer, a timeout, a dropped connection or a provider-side 5xx. Retryable.
 * - `rejected`: the provider refused the request itself (credentials, sender, template). Final, and no fault of
 *   the recipient: their contact details stay as they are.
 */
export type FailureReason =
  | 'hard_bounce'
  | 'soft_bounce'
  | 'invalid_recipient'
  | 'rate_limited'
  | 'unavailable'
  | 'rejected';

const RETRYABLE: Record<FailureReason, boolean> = {
  hard_bounce: false,
  soft_bounce: true,
  invalid_recipient: false,
  rate_limited: true,
  unavailable: true,
  rejected: false,
};

export interface SendFailure {
  reason: FailureReason;
  /** Follows from `reason`: whether sending the same message again may succeed. */
  retryable: boolean;
  /** The provider's own code: SMTP reply code (`550`), Cloud API error code (`131026`) or network code (`ECONNREFUSED`). */
  code: string | null;
  /** The provider's words, kept for the status history; at most 500 characters. */
  detail: string;
  /** How long the provider asked us to wait before trying again (Retry-After), when it said. */
  retryAfterMs: number | null;
}

export function sendFailure(
  reason: FailureReason,
  code: string | number | null,
  detail: string,
  retryAfterMs: number | null = null,
): SendFailure {
  return {
    reason,
    retryable: RETRYABLE[reason],
    code: code === null ? null : String(code),
    detail: detail.length > 500 ? `${detail.slice(0, 497)}...` : detail,
    retryAfterMs,
  };
}

/** A failure is a bounce of the recipient's address, which flags the learner for a contact update. */
export function isAddressFailure(f: SendFailure): boolean {
  return f.reason === 'hard_bounce' || f.reason === 'invalid_recipient';
}
