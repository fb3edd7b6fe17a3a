import type { SendFailure } from './send-failure.js';

/** One pre-approved template message (WhatsApp Business templates are the only way to start a conversation). */
export interface TemplateMessage {
  /** The recipient's mobile number as a person writes it; a number without a country code is South African. */
  to: string;
  /** The provider-side template name (`evidence_approved`). */
  template: string;
  /** The template's language code (`en`, `en_US`, `zu`). */
  language: string;
  /** Body parameters in order: the first fills `{{1}}`, the second `{{2}}`, ... */
  parameters: readonly string[];
}

export type MessagingResult = { ok: true; providerMessageId: string } | { ok: false; failure: SendFailure };

/**
 * Port: sends one template message over a messaging channel. The number is normalised to E.164 first; one that is
 * no valid mobile number is refused with DomainError('invalid', 'invalid_mobile') on `to` before anything is sent.
 * Every answer of the provider comes back as a result, never a throw: a number that cannot receive messages is
 * `invalid_recipient` (final), throttling is `rate_limited` with the provider's Retry-After, a provider 5xx, timeout
 * or connection failure is `unavailable`, and any other refusal is `rejected` (final). `providerMessageId` is the id
 * the provider's status callbacks will name. Not idempotent: each call is a new message.
 */
export interface MessagingChannel {
  send(message: TemplateMessage): Promise<MessagingResult>;
}
