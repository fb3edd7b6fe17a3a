import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCloudApi, type TestCloudApi } from '../testing/cloud-api-test-server.js';
import { toE164Mobile } from './phone-numbers.js';
import { WhatsAppCloudChannel, type WhatsAppCloudSettings } from './whatsapp-cloud-channel.js';
import { retryAfterMs } from './whatsapp-errors.js';

const message = {
  to: '+27821234567',
  template: 'deadline_reminder',
  language: 'en_US',
  parameters: ['Sipho', 'Upload your logbook', '2026-06-04'],
};

describe('WhatsAppCloudChannel', () => {
  let api: TestCloudApi;
  let channel: WhatsAppCloudChannel;
  const settings = (over: Partial<WhatsAppCloudSettings> = {}): WhatsAppCloudSettings => ({
    baseUrl: `${api.baseUrl}/`,
    apiVersion: 'v21.0',
    phoneNumberId: '1098765',
    accessToken: 'EAAG-secret',
    timeoutMs: 2_000,
    ...over,
  });
  beforeAll(async () => {
    api = await startCloudApi();
    channel = new WhatsAppCloudChannel(settings());
  });
  afterAll(() => api.close());

  it('POSTs the Cloud API template body to /{version}/{phone-number-id}/messages with the bearer token', async () => {
    await expect(channel.send(message)).resolves.toMatchObject({ ok: true });
    const req = api.requests.at(-1)!;
    expect(req.path).toBe('/v21.0/1098765/messages');
    expect(req.headers.authorization).toBe('Bearer EAAG-secret');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '+27821234567',
      type: 'template',
      template: {
        name: 'deadline_reminder',
        language: { code: 'en_US' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Sipho' },
              { type: 'text', text: 'Upload your logbook' },
              { type: 'text', text: '2026-06-04' },
            ],
          },
        ],
      },
    });
  });

  it('sends a template without parameters with no components, and foreign numbers in their own country', async () => {
    await expect(channel.send({ ...message, to: '+44 7911 123456', parameters: [] })).resolves.toMatchObject({
      ok: true,
    });
    expect(api.requests.at(-1)!.body).toMatchObject({ to: '+447911123456', template: { components: [] } });
  });

  it('refuses a malformed template name, language or empty parameter before sending', async () => {
    const before = api.requests.length;
    await expect(channel.send({ ...message, template: 'Deadline Reminder' })).rejects.toMatchObject({
      kind: 'invalid',
      details: [{ field: 'template' }],
    });
    await expect(channel.send({ ...message, language: 'english' })).rejects.toMatchObject({
      kind: 'invalid',
      details: [{ field: 'language' }],
    });
    await expect(channel.send({ ...message, parameters: ['Sipho', ' ', 'x'] })).rejects.toMatchObject({
      kind: 'invalid',
      details: [{ field: 'parameters.1' }],
    });
    await expect(channel.send({ ...message, to: '011 123 4567' })).rejects.toMatchObject({ code: 'invalid_mobile' });
    expect(api.requests).toHaveLength(before);
  });

  it('calls refused credentials and unknown templates rejected, final', async () => {
    api.answer('+27840000001', { status: 401, code: 190, message: 'Error validating access token' });
    api.answer('+27840000002', {
      status: 404,
      code: 132001,
      message: 'Template name does not exist in the translation',
    });
    await expect(channel.send({ ...message, to: '+27840000001' })).resolves.toMatchObject({
      ok: false,
      failure: { reason: 'rejected', retryable: false, code: '190' },
    });
    const r = await channel.send({ ...message, to: '+27840000002' });
    expect(r).toMatchObject({ ok: false, failure: { reason: 'rejected', code: '132001' } });
    expect(!r.ok && r.failure.detail).toBe('HTTP 404 Template name does not exist in the translation');
  });

  it('calls throttling reported as an error code with HTTP 400 rate_limited too, and reads an HTTP-date Retry-After', async () => {
    api.answer('+27840000003', { status: 400, code: 131056, message: 'Pair rate limit hit (code 131056)' });
    await expect(channel.send({ ...message, to: '+27840000003' })).resolves.toMatchObject({
      ok: false,
      failure: { reason: 'rate_limited', retryAfterMs: null },
    });
    const now = Date.parse('2026-06-01T08:00:00Z');
    expect(retryAfterMs('Mon, 01 Jun 2026 08:02:00 GMT', now)).toBe(120_000);
    expect(retryAfterMs(' 15 ', now)).toBe(15_000);
    expect(retryAfterMs('soon', now)).toBeNull();
  });

  it('calls a success without a message id rejected, so it is never sent twice', async () => {
    api.answer('+27840000004', { status: 200, raw: '{"messaging_product":"whatsapp"}' });
    await expect(channel.send({ ...message, to: '+27840000004' })).resolves.toMatchObject({
      ok: false,
      failure: { reason: 'rejected', retryable: false },
    });
  });

  it('gives up on a provider that does not answer within the limit: unavailable, retryable', async () => {
    api.answer('+27840000005', { hang: true });
    const started = performance.now();
    const r = await new WhatsAppCloudChannel(settings({ timeoutMs: 300 })).send({ ...message, to: '+27840000005' });
    expect(r).toMatchObject({ ok: false, failure: { reason: 'unavailable', retryable: true, code: 'ETIMEDOUT' } });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('calls a refused connection unavailable', async () => {
    // A port that was just free: fetch refuses to dial "bad" ports such as 1, so borrow one and give it back.
    const probe = createServer().listen(0, '127.0.0.1');
    await new Promise((ok) => probe.once('listening', ok));
    const { port } = probe.address() as AddressInfo;
    await new Promise((ok) => probe.close(ok));
    const down = new WhatsAppCloudChannel(settings({ baseUrl: `http://127.0.0.1:${port}` }));
    await expect(down.send(message)).resolves.toMatchObject({
      ok: false,
      failure: { reason: 'unavailable', code: 'ECONNREFUSED' },
    });
  });
});

describe('toE164Mobile', () => {
  it('reads national numbers in the default region and keeps landlines out', () => {
    expect(toE164Mobile('0821234567')).toBe('+27821234567');
    expect(toE164Mobile('07911 123456', 'GB')).toBe('+447911123456');
    expect(toE164Mobile('+1 650 555 1234')).toBe('+16505551234');
    expect(() => toE164Mobile('011 123 4567')).toThrow(expect.objectContaining({ code: 'invalid_mobile' }));
  });
});
