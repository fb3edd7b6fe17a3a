import { Email } from '../learners/contact.js';
import { DomainError } from '../common/errors.js';
import type { SendFailure } from './send-failure.js';

/** One email to one recipient. `from` and `to` are `address` or `Display Name <address>`. */
export interface OutgoingEmail {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Extra header fields (`List-Unsubscribe`, `X-Fundi-Notification`); names and values on one line each. */
  headers: Readonly<Record<string, string>>;
  /**
   * Ids the message is filed under (its notification, the learners it concerns); never sent. A mailer that keeps
   * copies (the outbox folder) records them with each copy, so a learner's erasure finds them.
   */
  refs?: readonly string[];
}

export type SendResult =
  /** `messageId`: the Message-ID header value, angle brackets included; `accepted`: the addresses the server took. */
  { ok: true; messageId: string; accepted: string[] } | { ok: false; failure: SendFailure };

/**
 * Port: sends one email. Every outcome of the transport comes back as a result, never as a throw: a refusal of
 * the recipient or message is a bounce (5xx hard and final, 4xx soft and retryable), a connection failure or
 * timeout is `unavailable` (retryable), a refusal of the sender or credentials is `rejected`. A message that cannot
 * be sent as given (malformed address, empty subject, a header with a line break) is refused before anything is
 * sent with DomainError('invalid') naming the field. Sending is not idempotent: each call is a new message.
 */
export interface Mailer {
  send(message: OutgoingEmail): Promise<SendResult>;
}

const MAILBOX = /^(?:"?([^"<>\r\n]*?)"?\s*)?<([^<>\s]+)>$/;
const HEADER_NAME = /^[!-9;-~]+$/;
// Set by the mailer itself; a caller-supplied copy would make a second, conflicting header.
const RESERVED = new Set([
  'from',
  'to',
  'cc',
  'bcc',
  'subject',
  'message-id',
  'date',
  'content-type',
  'mime-version',
  'content-transfer-encoding',
]);

/** The bare address of `address` or `Name <address>`; DomainError('invalid') on `field` when it is not one. */
export function mailboxAddress(value: string, field: string): Email {
  const m = MAILBOX.exec(value.trim());
  return Email.parse(m ? m[2] : value, field);
}

/** Checks a message before any transport sees it (see `Mailer`). */
export function checkOutgoingEmail(m: OutgoingEmail): void {
  mailboxAddress(m.from, 'from');
  mailboxAddress(m.to, 'to');
  if (!m.subject.trim()) throw DomainError.invalid('subject', 'must not be empty');
  if (/[\r\n]/.test(m.subject)) throw DomainError.invalid('subject', 'must be one line');
  if (!m.text.trim()) throw DomainError.invalid('text', 'must not be empty: every email has a plain-text part');
  for (const [name, value] of Object.entries(m.headers)) {
    const field = `headers.${name}`;
    if (!HEADER_NAME.test(name)) throw DomainError.invalid(field, 'is not a valid header name');
    if (RESERVED.has(name.toLowerCase())) throw DomainError.invalid(field, 'is set by the mailer and cannot be given');
    if (/[\r\n]/.test(value)) throw DomainError.invalid(field, 'must be one line');
  }
}

/**
 * One-click unsubscribe (RFC 8058): `List-Unsubscribe` with the https link, and `List-Unsubscribe-Post` that tells
 * mail clients a POST to it unsubscribes without a confirmation page.
 */
export function unsubscribeHeaders(url: string): Record<string, string> {
  if (!URL.canParse(url) || new URL(url).protocol !== 'https:')
    throw DomainError.invalid('unsubscribeUrl', 'must be an https URL');
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}
