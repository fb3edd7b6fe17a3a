import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret } from '@fundi/domain/webhooks';
import { hexSignature, webhookHeaders } from './signature.js';

describe('webhook signatures', () => {
  it('matches the published hex vector', () => {
    expect(hexSignature("It's a Secret to Everybody", 'Hello, World!')).toBe(
      '757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
    );
  });

  it('keys the hex signature with the whole secret string, whsec_ prefix included', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const h = webhookHeaders({
      url: 'x',
      eventId: 'evt_1',
      eventType: 'learner.created',
      timestamp: 1,
      body: '{}',
      secrets: [secret],
    });
    expect(h['x-webhook-signature']).toBe(hexSignature(secret, '{}'));
  });

  it('is verified by the standardwebhooks library acting as the receiver', () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({
      id: 'evt_abc',
      type: 'learner.created',
      timestamp: '2026-06-01T08:00:00.000Z',
      tenantId: 'ten_1',
      data: { a: 1 },
    });
    const h = webhookHeaders({
      url: 'x',
      eventId: 'evt_abc',
      eventType: 'learner.created',
      timestamp: Math.floor(Date.now() / 1000),
      body,
      secrets: [secret],
    });
    expect(new Webhook(secret).verify(body, h)).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateWebhookSecret()).verify(body, h)).toThrow();
    expect(() => new Webhook(secret).verify(`${body} `, h)).toThrow();
  });

  it('signs with both secrets during a rotation, so either verifies', () => {
    const [fresh, old] = [generateWebhookSecret(), generateWebhookSecret()];
    const body = '{"id":"evt_r"}';
    const h = webhookHeaders({
      url: 'x',
      eventId: 'evt_r',
      eventType: 'ping',
      timestamp: Math.floor(Date.now() / 1000),
      body,
      secrets: [fresh, old],
    });
    expect(h['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(fresh).verify(body, h)).toEqual({ id: 'evt_r' });
    expect(new Webhook(old).verify(body, h)).toEqual({ id: 'evt_r' });
    expect(h['x-webhook-signature']).toBe(hexSignature(fresh, body));
    expect(h['x-webhook-signature-previous']).toBe(hexSignature(old, body));
  });

  it('gives a caller-chosen secret without the whsec_ form only the hex signature', () => {
    const h = webhookHeaders({
      url: 'x',
      eventId: 'evt_1',
      eventType: 'ping',
      timestamp: 1,
      body: 'b',
      secrets: ["It's a Secret to Everybody"],
    });
    expect(h['webhook-signature']).toBeUndefined();
    expect(h['x-webhook-signature']).toBe(hexSignature("It's a Secret to Everybody", 'b'));
  });
});
