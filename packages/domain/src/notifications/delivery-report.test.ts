import { describe, expect, it } from 'vitest';
import { parseDeliveryReport } from './delivery-report.js';

// A Postfix-style asynchronous bounce: the whole multipart/report message, CRLF line ends.
const POSTFIX_BOUNCE = [
  'Return-Path: <>',
  'From: MAILER-DAEMON@mx.example.org (Mail Delivery System)',
  'Subject: Undelivered Mail Returned to Sender',
  'To: bounces@fundi.example',
  'MIME-Version: 1.0',
  'Content-Type: multipart/report; report-type=delivery-status;',
  '\tboundary="4A1B2C3D.1700000000/mx.example.org"',
  '',
  'This is a MIME-encapsulated message.',
  '',
  '--4A1B2C3D.1700000000/mx.example.org',
  'Content-Description: Notification',
  'Content-Type: text/plain; charset=us-ascii',
  '',
  "I'm sorry to have to inform you that your message could not be delivered.",
  '',
  '--4A1B2C3D.1700000000/mx.example.org',
  'Content-Description: Delivery report',
  'Content-Type: message/delivery-status',
  '',
  'Reporting-MTA: dns; mx.example.org',
  'X-Postfix-Queue-ID: 4A1B2C3D',
  'Arrival-Date: Tue, 14 Nov 2023 22:13:20 +0200 (SAST)',
  '',
  'Final-Recipient: rfc822; thandi@example.org',
  'Original-Recipient: rfc822;Thandi@Example.org',
  'Action: failed',
  'Status: 5.1.1',
  'Remote-MTA: dns; mail.example.org',
  'Diagnostic-Code: smtp; 550 5.1.1 <thandi@example.org>: Recipient address',
  '    rejected: User unknown in virtual mailbox table',
  '',
  'Final-Recipient: rfc822; sipho@example.org',
  'Action: delayed',
  'Status: 4.4.1 (persistent transient failure)',
  'Diagnostic-Code: X-Postfix; connect to mail.example.org: Connection timed out',
  '',
  '--4A1B2C3D.1700000000/mx.example.org',
  'Content-Description: Undelivered Message Headers',
  'Content-Type: text/rfc822-headers',
  '',
  'From: Fundi <no-reply@fundi.example>',
  'To: thandi@example.org',
  'Message-ID: <ntf_01HZX@fundi.example>',
  'Subject: Your evidence was approved',
  '',
  '--4A1B2C3D.1700000000/mx.example.org--',
  '',
].join('\r\n');

// The second example of RFC 3464 appendix C: the delivery-status body alone, a timeout that made the MTA give up.
const RFC_BODY = `Reporting-MTA: dns; cs.utk.edu

Original-Recipient: rfc822;louisl@larry.slip.umd.edu
Final-Recipient: rfc822;louisl@larry.slip.umd.edu
Action: failed
Status: 4.0.0
Diagnostic-Code: smtp; 426 connection timed out
Last-Attempt-Date: Thu, 7 Jul 1994 17:15:49 -0400
`;

describe('delivery status notifications (RFC 3464)', () => {
  it('reads every recipient of a whole report message, with its original Message-ID', () => {
    const r = parseDeliveryReport(POSTFIX_BOUNCE);
    expect(r.reportingMta).toBe('mx.example.org');
    expect(r.originalMessageId).toBe('<ntf_01HZX@fundi.example>');
    expect(r.recipients).toEqual([
      {
        recipient: 'thandi@example.org',
        originalRecipient: 'Thandi@Example.org',
        action: 'failed',
        status: '5.1.1',
        bounce: 'hard',
        diagnostic:
          'smtp; 550 5.1.1 <thandi@example.org>: Recipient address rejected: User unknown in virtual mailbox table',
      },
      {
        recipient: 'sipho@example.org',
        originalRecipient: null,
        action: 'delayed',
        status: '4.4.1',
        bounce: 'soft',
        diagnostic: 'X-Postfix; connect to mail.example.org: Connection timed out',
      },
    ]);
  });

  it('reads a delivery-status body on its own; a 4.x.x failure is soft', () => {
    const r = parseDeliveryReport(RFC_BODY);
    expect(r.reportingMta).toBe('cs.utk.edu');
    expect(r.originalMessageId).toBeNull();
    expect(r.recipients).toMatchObject([
      { recipient: 'louisl@larry.slip.umd.edu', action: 'failed', status: '4.0.0', bounce: 'soft' },
    ]);
  });

  it('does not call a successful delivery report a bounce', () => {
    const r = parseDeliveryReport(
      'Reporting-MTA: dns; a.example\n\nFinal-Recipient: rfc822; x@b.example\nAction: delivered\nStatus: 2.0.0\n',
    );
    expect(r.recipients[0]).toMatchObject({ action: 'delivered', bounce: null });
  });

  it('refuses text that is not a delivery report, naming what is missing', () => {
    const bad = (raw: string) =>
      expect(() => parseDeliveryReport(raw)).toThrow(
        expect.objectContaining({ kind: 'invalid', code: 'invalid_delivery_report' }),
      );
    bad('Hello, this is an ordinary message.');
    bad('Reporting-MTA: dns; a.example\n\nFinal-Recipient: rfc822; x@b.example\nAction: vanished\nStatus: 5.0.0\n');
    bad('Reporting-MTA: dns; a.example\n\nFinal-Recipient: rfc822; x@b.example\nAction: failed\nStatus: 550\n');
    bad('');
  });
});
