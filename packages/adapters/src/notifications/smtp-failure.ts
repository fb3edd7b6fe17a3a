import { sendFailure, type SendFailure } from '@fundi/domain/notifications';

interface SmtpError {
  code?: string;
  responseCode?: number;
  command?: string;
  response?: string;
  message?: string;
}

// Replies to these commands judge the recipient or the message; replies to EHLO, AUTH or MAIL FROM judge us.
const ABOUT_RECIPIENT = new Set(['RCPT TO', 'DATA']);

/**
 * Classifies a nodemailer error. A 5xx reply about the recipient or message is a hard bounce and a 4xx a soft one;
 * a reply code at another stage means the server refused our session (5xx `rejected`, 4xx `unavailable`); no reply
 * code at all is a connection, TLS or timeout failure, `unavailable`.
 */
export function smtpFailure(error: unknown): SendFailure {
  const e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as SmtpError;
  const detail = e.response ?? e.message ?? 'SMTP failure';
  const reply = e.responseCode;
  if (typeof reply !== 'number' || reply < 400) {
    // nodemailer files every socket error under ESOCKET; the system's code (ECONNREFUSED) is in the message.
    const network = /\b(E[A-Z]{4,})\b/.exec(e.message ?? '')?.[1];
    return sendFailure('unavailable', network ?? e.code ?? null, detail);
  }
  const aboutRecipient = ABOUT_RECIPIENT.has(e.command ?? '');
  if (reply >= 500) return sendFailure(aboutRecipient ? 'hard_bounce' : 'rejected', reply, detail);
  return sendFailure(aboutRecipient ? 'soft_bounce' : 'unavailable', reply, detail);
}
