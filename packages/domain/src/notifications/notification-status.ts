import { DomainError } from '../common/errors.js';
import type { SendFailure } from './send-failure.js';

export type NotificationChannel = 'email' | 'whatsapp';
export type EmailStatus = 'queued' | 'sent' | 'delivered' | 'opened' | 'bounced';
export type WhatsAppStatus = 'queued' | 'sent' | 'delivered' | 'read' | 'failed';
export type NotificationStatus = EmailStatus | WhatsAppStatus;

/**
 * Each channel's statuses in the one order they may move in. The last one (`bounced`, `failed`) is final and ranks
 * above every other, so a status is the highest one reported, and the same callbacks end in the same status
 * whatever order they arrive in. A bounce reported after "delivered" wins: an SMTP server that accepted a message
 * can still bounce it later.
 */
const ORDER: Record<NotificationChannel, readonly NotificationStatus[]> = {
  email: ['queued', 'sent', 'delivered', 'opened', 'bounced'],
  whatsapp: ['queued', 'sent', 'delivered', 'read', 'failed'],
};

export const FINAL_STATUS: Record<NotificationChannel, NotificationStatus> = { email: 'bounced', whatsapp: 'failed' };

function rank(channel: NotificationChannel, status: string): number {
  const i = ORDER[channel].indexOf(status as NotificationStatus);
  if (i < 0)
    throw DomainError.invalid('status', `must be one of ${ORDER[channel].join(', ')} for ${channel}`, 'invalid_status');
  return i;
}

/** A status reported for `channel` (a provider callback, a DSN); DomainError('invalid') for another channel's word. */
export function parseNotificationStatus(channel: NotificationChannel, value: unknown): NotificationStatus {
  if (typeof value !== 'string') throw DomainError.invalid('status', 'must be a string', 'invalid_status');
  rank(channel, value);
  return value as NotificationStatus;
}

export function isFinalStatus(channel: NotificationChannel, status: NotificationStatus): boolean {
  return status === FINAL_STATUS[channel];
}

/** The status after `reported` arrives: it only ever moves forward, and a final status never changes. */
export function advanceStatus(
  channel: NotificationChannel,
  current: NotificationStatus,
  reported: NotificationStatus,
): NotificationStatus {
  return rank(channel, reported) > rank(channel, current) ? reported : current;
}

/** Soft-bounced email is retried this many times after the first attempt, then it is bounced. */
export const SOFT_BOUNCE_RETRIES = 3;
/** Attempts for other retryable failures (connection, provider 5xx, throttling) before the notification gives up. */
export const MAX_SEND_ATTEMPTS = 10;

export type AfterFailure = { retry: true; delayMs: number } | { retry: false; status: NotificationStatus };

/**
 * What follows the failed send attempt number `attempt` (1-based): a final failure ends in the channel's final
 * status at once; a soft bounce is retried `SOFT_BOUNCE_RETRIES` times; other retryable failures up to
 * `MAX_SEND_ATTEMPTS` attempts in all. The delay doubles from 30 s (at most 1 h), and is never shorter than what
 * the provider asked for with Retry-After.
 */
export function afterSendFailure(channel: NotificationChannel, attempt: number, f: SendFailure): AfterFailure {
  const limit = f.reason === 'soft_bounce' ? 1 + SOFT_BOUNCE_RETRIES : MAX_SEND_ATTEMPTS;
  if (!f.retryable || attempt >= limit) return { retry: false, status: FINAL_STATUS[channel] };
  const backoff = Math.min(30_000 * 2 ** (attempt - 1), 3_600_000);
  return { retry: true, delayMs: Math.max(backoff, f.retryAfterMs ?? 0) };
}
