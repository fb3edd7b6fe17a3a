import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWhatsAppSignature, whatsAppSignature, whatsAppStatuses } from './whatsapp-callback.js';

const secret = 'app-secret-0123456789abcdef';
const body = Buffer.from(
  JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '27110000000', phone_number_id: '1098765' },
              statuses: [
                { id: 'wamid.AAA', status: 'delivered', timestamp: '1780300800', recipient_id: '27821234567' },
                {
                  id: 'wamid.BBB',
                  status: 'failed',
                  timestamp: '1780300860',
                  recipient_id: '27831112222',
                  errors: [{ code: 131026, title: 'Message undeliverable' }],
                },
              ],
            },
          },
        ],
      },
    ],
  }),
);

describe('WhatsApp callback signature', () => {
  it('accepts the HMAC-SHA256 of the raw body under the app secret', () => {
    const header = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    expect(whatsAppSignature(body, secret)).toBe(header);
    expect(verifyWhatsAppSignature(body, header, secret)).toBe(true);
    expect(
      verifyWhatsAppSignature(body.toString('utf8'), header.toUpperCase().replace('SHA256=', 'sha256='), secret),
    ).toBe(true);
  });

  it('refuses an altered body, another secret, and a missing or malformed header', () => {
    const header = whatsAppSignature(body, secret);
    const altered = Buffer.from(body.toString('utf8').replace('delivered', 'read'));
    expect(verifyWhatsAppSignature(altered, header, secret)).toBe(false);
    expect(verifyWhatsAppSignature(body, header, 'another-secret')).toBe(false);
    expect(verifyWhatsAppSignature(body, undefined, secret)).toBe(false);
    expect(verifyWhatsAppSignature(body, '', secret)).toBe(false);
    expect(verifyWhatsAppSignature(body, header.slice(7), secret)).toBe(false);
    expect(verifyWhatsAppSignature(body, header.slice(0, -2), secret)).toBe(false);
    expect(verifyWhatsAppSignature(body, `sha1=${header.slice(7)}`, secret)).toBe(false);
    expect(verifyWhatsAppSignature(body, `${header.slice(0, -1)}z`, secret)).toBe(false);
    expect(verifyWhatsAppSignature(body, header, '')).toBe(false);
  });
});

describe('WhatsApp status callbacks', () => {
  it('reads every status with its time and first error', () => {
    expect(whatsAppStatuses(JSON.parse(body.toString('utf8')))).toEqual([
      {
        providerMessageId: 'wamid.AAA',
        status: 'delivered',
        at: '2026-06-01T08:00:00.000Z',
        recipient: '27821234567',
        error: null,
      },
      {
        providerMessageId: 'wamid.BBB',
        status: 'failed',
        at: '2026-06-01T08:01:00.000Z',
        recipient: '27831112222',
        error: '131026: Message undeliverable',
      },
    ]);
  });

  it('finds nothing in a callback about something else, and refuses a malformed status', () => {
    expect(whatsAppStatuses({ entry: [{ changes: [{ value: { messages: [{ id: 'x' }] } }] }] })).toEqual([]);
    expect(whatsAppStatuses(null)).toEqual([]);
    expect(() =>
      whatsAppStatuses({
        entry: [{ changes: [{ value: { statuses: [{ id: 'w', status: 'opened', timestamp: '1' }] } }] }],
      }),
    ).toThrow(expect.objectContaining({ kind: 'invalid', code: 'invalid_status' }));
    expect(() =>
      whatsAppStatuses({
        entry: [{ changes: [{ value: { statuses: [{ id: 'w', status: 'read', timestamp: 'soon' }] } }] }],
      }),
    ).toThrow(
      expect.objectContaining({
        kind: 'invalid',
        details: [{ field: 'statuses.0.timestamp', message: 'must be Unix seconds' }],
      }),
    );
  });
});
