import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError } from '../common/errors.js';
import { parseNotificationStatus, type NotificationStatus } from './notification-status.js';

/**
 * Checks `X-Hub-Signature-256: sha256=<hex>` of a WhatsApp callback: the HMAC-SHA256 of the raw body bytes (exactly
 * as received, before any JSON parsing) keyed with the app secret. Compared in constant time; a missing or
 * malformed header is simply not valid.
 */
export function verifyWhatsAppSignature(
  rawBody: Buffer | string,
  header: string | undefined | null,
  appSecret: string,
): boolean {
  const m = /^sha256=([0-9a-fA-F]{64})$/.exec(header?.trim() ?? '');
  if (!m || !appSecret) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(m[1]!, 'hex'));
}

/** The header value a WhatsApp callback with `rawBody` carries (for tests and local tools). */
export function whatsAppSignature(rawBody: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

/** One status a WhatsApp callback reports for a message we sent. */
export interface WhatsAppStatusReport {
  providerMessageId: string;
  status: NotificationStatus;
  /** ISO 8601 time the provider gives for the status. */
  at: string;
  recipient: string | null;
  /** The first error of a `failed` status, as `code: title`. */
  error: string | null;
}

interface Callback {
  entry?: { changes?: { value?: { statuses?: unknown[] } }[] }[];
}

/**
 * The message statuses in a WhatsApp callback body (`entry[].changes[].value.statuses[]`); callbacks about other
 * things (incoming messages, template reviews) hold none. DomainError('invalid') when a status entry is malformed.
 */
export function whatsAppStatuses(body: unknown): WhatsAppStatusReport[] {
  const entries = (body as Callback | null)?.entry ?? [];
  return entries
    .flatMap((e) => e.changes ?? [])
    .flatMap((c) => c.value?.statuses ?? [])
    .map((s, i) => {
      const st = s as {
        id?: unknown;
        status?: unknown;
        timestamp?: unknown;
        recipient_id?: unknown;
        errors?: { code?: unknown; title?: unknown }[];
      };
      if (typeof st.id !== 'string' || !st.id) throw DomainError.invalid(`statuses.${i}.id`, 'must be the message id');
      const seconds = Number(st.timestamp);
      if (!Number.isInteger(seconds) || seconds <= 0)
        throw DomainError.invalid(`statuses.${i}.timestamp`, 'must be Unix seconds');
      const err = st.errors?.[0];
      return {
        providerMessageId: st.id,
        status: parseNotificationStatus('whatsapp', st.status),
        at: new Date(seconds * 1000).toISOString(),
        recipient: typeof st.recipient_id === 'string' ? st.recipient_id : null,
        error: err ? `${String(err.code)}: ${String(err.title ?? '')}` : null,
      };
    });
}
