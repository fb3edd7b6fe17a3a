import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendFailure, type MessagingChannel, type TemplateMessage } from '@fundi/domain/notifications';
import { FakeMessagingChannel } from '@fundi/testing';
import { startCloudApi } from '../testing/cloud-api-test-server.js';
import { toE164Mobile } from './phone-numbers.js';
import { WhatsAppCloudChannel } from './whatsapp-cloud-channel.js';

interface Delivered {
  to: string;
  template: string;
  language: string;
  parameters: string[];
  providerMessageId: string;
}

/** Ways a provider turns a message down, as each side expresses them. */
type Refusal = 'invalid_number' | 'throttled_30s' | 'down';

interface Harness {
  channel: MessagingChannel;
  /** What the provider accepted, oldest first. */
  delivered(): Delivered[];
  /** Messages the provider saw at all, accepted or not. */
  seen(): number;
  refuse(e164: string, r: Refusal): void;
  close(): Promise<void>;
}

function fakeHarness(): Harness {
  // The adapter's own normaliser, so both sides read numbers alike.
  const fake = new FakeMessagingChannel((to) => toE164Mobile(to));
  let refused = 0;
  const failures = {
    invalid_number: sendFailure('invalid_recipient', 131026, 'Message undeliverable'),
    throttled_30s: sendFailure('rate_limited', 130429, 'Rate limit hit', 30_000),
    down: sendFailure('unavailable', 503, 'Service unavailable'),
  };
  return {
    channel: {
      send: async (m) => {
        const r = await fake.send(m);
        if (!r.ok) refused += 1;
        return r;
      },
    },
    delivered: () => fake.sent.map((s) => ({ ...s, parameters: [...s.parameters] })),
    seen: () => fake.sent.length + refused,
    refuse: (to, r) => fake.failFor(to, failures[r]),
    close: async () => undefined,
  };
}

async function cloudHarness(): Promise<Harness> {
  const api = await startCloudApi();
  const channel = new WhatsAppCloudChannel({
    baseUrl: api.baseUrl,
    apiVersion: 'v21.0',
    phoneNumberId: '1098765',
    accessToken: 'EAAG-test',
    timeoutMs: 2_000,
  });
  return {
    channel,
    delivered: () =>
      api.requests
        .filter((r) => r.messageId)
        .map((r) => ({
          to: r.body.to,
          template: r.body.template.name,
          language: r.body.template.language.code,
          parameters: r.body.template.components.flatMap((c) => c.parameters.map((p) => p.text)),
          providerMessageId: r.messageId!,
        })),
    seen: () => api.requests.length,
    refuse(to, r) {
      if (r === 'invalid_number') api.answer(to, { status: 400, code: 131026, message: 'Message undeliverable.' });
      if (r === 'throttled_30s')
        api.answer(to, { status: 429, code: 130429, message: 'Rate limit hit', retryAfter: '30' });
      if (r === 'down') api.answer(to, { status: 503, message: 'Service temporarily unavailable' });
    },
    close: () => api.close(),
  };
}

const message = (over: Partial<TemplateMessage> = {}): TemplateMessage => ({
  to: '+27821234567',
  template: 'evidence_approved',
  language: 'en',
  parameters: ['Thandi', 'Portfolio of evidence', 'Module 2: Safety'],
  ...over,
});

describe.each([
  ['fake', async () => fakeHarness()],
  ['WhatsApp Cloud API', cloudHarness],
] as const)('MessagingChannel contract: %s', (_name, start) => {
  let h: Harness;
  beforeAll(async () => {
    h = await start();
  });
  afterAll(async () => {
    await h.close();
  });

  it('sends the template, its language and its parameters in order, under the id it returns', async () => {
    const r = await h.channel.send(message());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.providerMessageId).toMatch(/^wamid\./);
    expect(h.delivered().at(-1)).toEqual({
      to: '+27821234567',
      template: 'evidence_approved',
      language: 'en',
      parameters: ['Thandi', 'Portfolio of evidence', 'Module 2: Safety'],
      providerMessageId: r.providerMessageId,
    });
  });

  it('normalises a number as people write it to E.164, reading it as South African without a country code', async () => {
    for (const written of ['082 123 4568', '(082) 123-4568', '+27 82 123 4568']) {
      await expect(h.channel.send(message({ to: written }))).resolves.toMatchObject({ ok: true });
      expect(h.delivered().at(-1)?.to).toBe('+27821234568');
    }
  });

  it('refuses a number that is no mobile number before anything is sent', async () => {
    const before = h.seen();
    for (const to of ['12345', '+27 82 123 45678', 'not a number', '']) {
      await expect(h.channel.send(message({ to }))).rejects.toMatchObject({
        kind: 'invalid',
        code: 'invalid_mobile',
        details: [{ field: 'to' }],
      });
    }
    expect(h.seen()).toBe(before);
  });

  it('calls a number the provider cannot deliver to invalid_recipient, final', async () => {
    h.refuse('+27831112222', 'invalid_number');
    await expect(h.channel.send(message({ to: '0831112222' }))).resolves.toMatchObject({
      ok: false,
      failure: { reason: 'invalid_recipient', retryable: false, code: '131026' },
    });
  });

  it('calls throttling rate_limited, retryable after the Retry-After the provider gave', async () => {
    h.refuse('+27831113333', 'throttled_30s');
    await expect(h.channel.send(message({ to: '+27831113333' }))).resolves.toMatchObject({
      ok: false,
      failure: { reason: 'rate_limited', retryable: true, retryAfterMs: 30_000 },
    });
  });

  it('calls a provider outage unavailable, retryable, and sends to other numbers meanwhile', async () => {
    h.refuse('+27831114444', 'down');
    await expect(h.channel.send(message({ to: '+27831114444' }))).resolves.toMatchObject({
      ok: false,
      failure: { reason: 'unavailable', retryable: true },
    });
    await expect(h.channel.send(message({ to: '+27831115555' }))).resolves.toMatchObject({ ok: true });
    expect(h.delivered().some((d) => d.to === '+27831114444')).toBe(false);
  });
});
