import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sendFailure } from './send-failure.js';
import {
  advanceStatus,
  afterSendFailure,
  isFinalStatus,
  parseNotificationStatus,
  type NotificationChannel,
  type NotificationStatus,
} from './notification-status.js';

const STATUSES: Record<NotificationChannel, NotificationStatus[]> = {
  email: ['queued', 'sent', 'delivered', 'opened', 'bounced'],
  whatsapp: ['queued', 'sent', 'delivered', 'read', 'failed'],
};

const replay = (channel: NotificationChannel, reports: readonly NotificationStatus[]) =>
  reports.reduce<NotificationStatus>((s, r) => advanceStatus(channel, s, r), 'queued');

describe('notification status', () => {
  it('moves forward along each channel', () => {
    expect(replay('email', ['sent', 'delivered', 'opened'])).toBe('opened');
    expect(replay('whatsapp', ['sent', 'delivered', 'read'])).toBe('read');
    expect(replay('whatsapp', ['read', 'delivered', 'sent'])).toBe('read');
    expect(replay('email', ['opened', 'sent'])).toBe('opened');
  });

  it('keeps a final status whatever arrives after it, and lets a late bounce end a delivered email', () => {
    expect(replay('email', ['sent', 'bounced', 'delivered', 'opened'])).toBe('bounced');
    expect(replay('whatsapp', ['failed', 'sent', 'read'])).toBe('failed');
    expect(replay('email', ['sent', 'delivered', 'bounced'])).toBe('bounced');
    expect(isFinalStatus('email', 'bounced')).toBe(true);
    expect(isFinalStatus('whatsapp', 'read')).toBe(false);
  });

  it("refuses another channel's word", () => {
    expect(() => parseNotificationStatus('email', 'read')).toThrow(
      expect.objectContaining({ kind: 'invalid', code: 'invalid_status' }),
    );
    expect(() => advanceStatus('whatsapp', 'sent', 'opened')).toThrow(expect.objectContaining({ kind: 'invalid' }));
    expect(parseNotificationStatus('whatsapp', 'read')).toBe('read');
  });

  for (const channel of ['email', 'whatsapp'] as const) {
    it(`${channel}: the same callbacks in any order end in the same status, and never move back`, () => {
      const reports = fc.array(fc.constantFrom(...STATUSES[channel]), { maxLength: 12 });
      const withOrder = reports.chain((r) =>
        fc.tuple(fc.constant(r), fc.shuffledSubarray(r, { minLength: r.length, maxLength: r.length })),
      );
      fc.assert(
        fc.property(withOrder, ([inOrder, shuffled]) => {
          expect(replay(channel, shuffled)).toBe(replay(channel, inOrder));
          let s: NotificationStatus = 'queued';
          for (const r of shuffled) {
            const next = advanceStatus(channel, s, r);
            expect(STATUSES[channel].indexOf(next)).toBeGreaterThanOrEqual(STATUSES[channel].indexOf(s));
            if (isFinalStatus(channel, s)) expect(next).toBe(s);
            s = next;
          }
        }),
        { numRuns: 500 },
      );
    });
  }
});

describe('after a failed send', () => {
  const soft = sendFailure('soft_bounce', 451, '451 try later');
  it('bounces a hard bounce at once and retries a soft bounce three times', () => {
    expect(afterSendFailure('email', 1, sendFailure('hard_bounce', 550, 'no such user'))).toEqual({
      retry: false,
      status: 'bounced',
    });
    expect([1, 2, 3].map((n) => afterSendFailure('email', n, soft).retry)).toEqual([true, true, true]);
    expect(afterSendFailure('email', 4, soft)).toEqual({ retry: false, status: 'bounced' });
  });

  it('fails an invalid number at once, and waits at least as long as Retry-After asks', () => {
    expect(afterSendFailure('whatsapp', 1, sendFailure('invalid_recipient', 131026, 'undeliverable'))).toEqual({
      retry: false,
      status: 'failed',
    });
    expect(afterSendFailure('whatsapp', 1, sendFailure('rate_limited', 429, 'slow down', 120_000))).toEqual({
      retry: true,
      delayMs: 120_000,
    });
    expect(afterSendFailure('whatsapp', 2, sendFailure('unavailable', 503, 'down'))).toEqual({
      retry: true,
      delayMs: 60_000,
    });
    expect(afterSendFailure('whatsapp', 10, sendFailure('unavailable', 503, 'down'))).toEqual({
      retry: false,
      status: 'failed',
    });
  });
});
