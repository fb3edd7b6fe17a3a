import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError } from '@fundi/domain';
import { parseDeliveryReport } from '@fundi/domain/notifications';

// What provider callbacks carry, read without trusting them yet (docs/api.md, "Notifications", "Callbacks").

/** Constant-time comparison of two strings. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Whether `header` is `sha256=<hex HMAC-SHA256 of raw under secret>`, compared in constant time. */
export function checkHmac(raw: Buffer, header: string | undefined, secret: string): boolean {
  const m = /^sha256=([0-9a-fA-F]{64})$/.exec(header?.trim() ?? '');
  if (!m) return false;
  return timingSafeEqual(createHmac('sha256', secret).update(raw).digest(), Buffer.from(m[1]!, 'hex'));
}

/** The signature header value of an email callback body (for tests and senders' tools). */
export function emailCallbackSignature(raw: Buffer | string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
}

/** The WhatsApp business phone number id a Cloud API callback body names, or null. */
export function phoneNumberIdOf(body: unknown): string | null {
  const v = (body as { entry?: { changes?: { value?: { metadata?: { phone_number_id?: unknown } } }[] }[] } | null)
    ?.entry?.[0]?.changes?.[0]?.value?.metadata?.phone_number_id;
  return typeof v === 'string' && v ? v : null;
}

/** One report of an email callback. */
export interface EmailReport {
  messageId: string;
  event: 'delivered' | 'opened' | 'hard_bounce' | 'soft_bounce';
  at: string | null;
  detail: string | null;
}

const EVENTS = new Set(['delivered', 'opened', 'bounced']);

/**
 * The reports of an email callback body: JSON `{events: [{messageId, event: delivered|opened|bounced,
 * bounceType: hard|soft, timestamp?, detail?}]}`, or an RFC 3464 delivery-status message (any other content type).
 */
export function parseEmailReports(raw: Buffer, contentType: string | null): EmailReport[] {
  const text = raw.toString('utf8');
  if (contentType?.toLowerCase().startsWith('application/json')) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw DomainError.invalid('body', 'must be JSON');
    }
    const events = (body as { events?: unknown } | null)?.events;
    if (!Array.isArray(events) || events.length === 0 || events.length > 1000)
      throw DomainError.invalid('events', 'must be a list of 1 to 1,000 events');
    const errors: { field: string; message: string }[] = [];
    const out: EmailReport[] = [];
    for (const [i, e] of events.entries()) {
      const x = (e ?? {}) as Record<string, unknown>;
      if (typeof x.messageId !== 'string' || !x.messageId)
        errors.push({ field: `events.${i}.messageId`, message: 'must be the Message-ID of the mail' });
      if (typeof x.event !== 'string' || !EVENTS.has(x.event))
        errors.push({ field: `events.${i}.event`, message: 'must be delivered, opened or bounced' });
      if (x.event === 'bounced' && x.bounceType !== 'hard' && x.bounceType !== 'soft')
        errors.push({ field: `events.${i}.bounceType`, message: 'must be hard or soft for a bounce' });
      if (x.timestamp !== undefined && (typeof x.timestamp !== 'string' || Number.isNaN(Date.parse(x.timestamp))))
        errors.push({ field: `events.${i}.timestamp`, message: 'must be an ISO 8601 time' });
      if (x.detail !== undefined && typeof x.detail !== 'string')
        errors.push({ field: `events.${i}.detail`, message: 'must be a string' });
      if (errors.length) continue;
      out.push({
        messageId: x.messageId as string,
        event:
          x.event === 'bounced'
            ? x.bounceType === 'hard'
              ? 'hard_bounce'
              : 'soft_bounce'
            : (x.event as 'delivered' | 'opened'),
        at: typeof x.timestamp === 'string' ? new Date(x.timestamp).toISOString() : null,
        detail: typeof x.detail === 'string' ? x.detail.slice(0, 500) : null,
      });
    }
    if (errors.length) throw DomainError.invalidMany(errors);
    return out;
  }
  const dsn = parseDeliveryReport(text);
  if (!dsn.originalMessageId)
    throw DomainError.invalid(
      'body',
      'the delivery report does not return the Message-ID of the mail',
      'invalid_delivery_report',
    );
  return dsn.recipients.flatMap((r) =>
    r.bounce === null && r.action !== 'delivered'
      ? []
      : [
          {
            messageId: dsn.originalMessageId!,
            event: r.action === 'delivered' ? 'delivered' : r.bounce === 'hard' ? 'hard_bounce' : 'soft_bounce',
            at: null,
            detail: [r.status, r.diagnostic].filter(Boolean).join(' ') || null,
          } satisfies EmailReport,
        ],
  );
}
