import { describe, expect, it } from 'vitest';
import { checkOutgoingEmail, mailboxAddress, unsubscribeHeaders } from './mailer.js';
import { isAddressFailure, sendFailure } from './send-failure.js';

describe('outgoing email checks', () => {
  const base = {
    from: 'Fundi <no-reply@fundi.example>',
    to: '"Nkosi, Thandi" <thandi@example.org>',
    subject: 'Hi',
    html: '',
    text: 'Hi',
    headers: {},
  };

  it('reads bare and display-name mailboxes', () => {
    expect(mailboxAddress('thandi@example.org', 'to')).toBe('thandi@example.org');
    expect(mailboxAddress('"Nkosi, Thandi" <thandi@example.org>', 'to')).toBe('thandi@example.org');
    expect(() => mailboxAddress('Thandi <>', 'to')).toThrow(
      expect.objectContaining({ kind: 'invalid', code: 'invalid_email' }),
    );
    expect(() => checkOutgoingEmail(base)).not.toThrow();
  });

  it('allows the list headers but not the ones the mailer sets', () => {
    expect(() =>
      checkOutgoingEmail({ ...base, headers: unsubscribeHeaders('https://app.fundi.example/u/1') }),
    ).not.toThrow();
    expect(() => checkOutgoingEmail({ ...base, headers: { 'message-id': '<x@y>' } })).toThrow(
      expect.objectContaining({
        details: [{ field: 'headers.message-id', message: 'is set by the mailer and cannot be given' }],
      }),
    );
  });

  it('builds one-click unsubscribe headers from an https link only', () => {
    expect(unsubscribeHeaders('https://app.fundi.example/u/1')).toEqual({
      'List-Unsubscribe': '<https://app.fundi.example/u/1>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(() => unsubscribeHeaders('http://app.fundi.example/u/1')).toThrow(
      expect.objectContaining({ kind: 'invalid' }),
    );
    expect(() => unsubscribeHeaders('not a url')).toThrow(expect.objectContaining({ kind: 'invalid' }));
  });
});

describe('send failures', () => {
  it('derive retryability from the reason and keep details short', () => {
    expect(sendFailure('hard_bounce', 550, 'x')).toEqual({
      reason: 'hard_bounce',
      retryable: false,
      code: '550',
      detail: 'x',
      retryAfterMs: null,
    });
    expect(sendFailure('soft_bounce', 451, 'x').retryable).toBe(true);
    expect(sendFailure('rejected', 535, 'x').retryable).toBe(false);
    expect(sendFailure('unavailable', null, 'y'.repeat(900)).detail).toHaveLength(500);
    expect(isAddressFailure(sendFailure('invalid_recipient', 131026, 'x'))).toBe(true);
    expect(isAddressFailure(sendFailure('rejected', 535, 'x'))).toBe(false);
  });
});
