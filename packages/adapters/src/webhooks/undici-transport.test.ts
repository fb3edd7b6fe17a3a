import { createServer } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { buildConnector } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateWebhookSecret } from '@fundi/domain/webhooks';
import { startReceiver, type TestReceiver } from '../testing/webhook-receiver.js';
import type { Resolver } from './address-guard.js';
import { UndiciWebhookTransport, type TransportSettings } from './undici-transport.js';

/** Counts every socket the transport tries to open, so a refusal can be shown to happen before any connection. */
function spyConnector() {
  const real = buildConnector({});
  const spy = {
    calls: [] as string[],
    connect: ((opts, cb) => {
      spy.calls.push(opts.hostname);
      return real(opts, cb);
    }) as buildConnector.connector,
  };
  return spy;
}

const secret = generateWebhookSecret();
const webhook = (url: string, eventId = 'evt_t1') => ({
  url,
  eventId,
  eventType: 'learner.created',
  timestamp: Math.floor(Date.now() / 1000),
  body: JSON.stringify({
    id: eventId,
    type: 'learner.created',
    timestamp: new Date().toISOString(),
    tenantId: 'ten_1',
    data: {},
  }),
  secrets: [secret],
});

describe('UndiciWebhookTransport against a real receiver on 127.0.0.1', () => {
  let rx: TestReceiver;
  let transports: UndiciWebhookTransport[] = [];
  const transport = (s: Partial<TransportSettings> = {}) => {
    const t = new UndiciWebhookTransport({ timeoutMs: 2000, allowHosts: ['127.0.0.1'], allowHttp: true, ...s });
    transports.push(t);
    return t;
  };
  beforeAll(async () => {
    rx = await startReceiver();
  });
  afterAll(async () => {
    await Promise.all(transports.map((t) => t.close()));
    transports = [];
    await rx.close();
  });

  it('2xx: success, signed so that the standardwebhooks library verifies it', async () => {
    rx.setMode({ status: 204 });
    const w = webhook(rx.url, 'evt_ok');
    const r = await transport().send(w);
    expect(r).toMatchObject({ statusCode: 204, error: null });
    const got = rx.received.at(-1)!;
    expect(got.headers['x-webhook-id']).toBe('evt_ok');
    expect(got.headers['x-webhook-event']).toBe('learner.created');
    expect(new Webhook(secret).verify(got.body, got.headers as Record<string, string>)).toMatchObject({ id: 'evt_ok' });
  });

  it('500: a failure with the status and the first 1 KB of the body', async () => {
    rx.setMode({ status: 500, body: 'x'.repeat(5000) });
    const r = await transport().send(webhook(rx.url));
    expect(r.statusCode).toBe(500);
    expect(r.error).toBeNull();
    expect(r.responseExcerpt).toHaveLength(1024);
  });

  it('a body over the drain limit is cut: the verdict and the 1 KB excerpt stand, and the next attempt connects afresh', async () => {
    rx.setMode({ status: 200, body: 'y'.repeat(200_000) });
    const t = transport();
    const r = await t.send(webhook(rx.url));
    expect(r).toMatchObject({ statusCode: 200, error: null });
    expect(r.responseExcerpt).toBe('y'.repeat(1024));
    rx.setMode({ status: 204 });
    expect(await t.send(webhook(rx.url))).toMatchObject({ statusCode: 204, error: null, responseExcerpt: null });
  });

  it('timeout: no answer within the configured limit', async () => {
    rx.setMode({ hang: true });
    const r = await transport({ timeoutMs: 300 }).send(webhook(rx.url));
    expect(r).toMatchObject({ statusCode: null, error: 'timeout after 300 ms' });
    expect(r.latencyMs).toBeGreaterThanOrEqual(290);
    expect(r.latencyMs).toBeLessThan(2000);
  });

  it('a 2xx that arrives after the limit is a failure', async () => {
    rx.setMode({ status: 200, delayMs: 450 });
    const r = await transport({ timeoutMs: 300 }).send(webhook(rx.url));
    expect(r.error).toBe('timeout after 300 ms');
    expect(r.latencyMs).toBeGreaterThan(300);
  });

  it('redirect: not followed, a failure', async () => {
    const target = await startReceiver();
    rx.setMode({ redirectTo: target.url });
    const r = await transport().send(webhook(rx.url));
    expect(r).toMatchObject({ statusCode: 302, error: 'redirect not followed' });
    expect(target.received).toHaveLength(0);
    await target.close();
  });

  it('connection refused on a closed port', async () => {
    const port = await new Promise<number>((ok) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => ok(p));
      });
    });
    const r = await transport().send(webhook(`http://127.0.0.1:${port}/hook`));
    expect(r).toMatchObject({ statusCode: null, error: 'connection refused' });
  });

  it('requires https unless the operator allows http', async () => {
    const r = await transport({ allowHttp: false }).send(webhook(rx.url));
    expect(r.error).toBe('https is required');
  });

  it('refuses every loopback spelling before opening a socket when nothing is allow-listed', async () => {
    rx.setMode({ status: 200 });
    const before = rx.received.length;
    const spy = spyConnector();
    const t = transport({ allowHosts: [], baseConnect: spy.connect });
    const p = rx.port;
    for (const url of [
      `http://127.0.0.1:${p}/`,
      `http://[::1]:${p}/`,
      `http://[::ffff:127.0.0.1]:${p}/`,
      `http://2130706433:${p}/`,
      `http://0x7f000001:${p}/`,
      `http://localhost:${p}/`,
    ]) {
      const r = await t.send(webhook(url));
      expect(r.statusCode, url).toBeNull();
      expect(r.error, url).toBe('address refused: private or reserved address');
    }
    expect(spy.calls).toEqual([]);
    expect(rx.received.length).toBe(before);
  });

  it('refuses names resolving to private, link-local and reserved addresses before any connection', async () => {
    const answers: Record<string, string> = {
      'ten.example': '10.1.2.3',
      'one72.example': '172.20.0.1',
      'one92.example': '192.168.10.10',
      'cgnat.example': '100.64.1.1',
      'meta.example': '169.254.169.254',
      'ula.example': 'fd00::5',
      'll6.example': 'fe80::1',
      'zero.example': '0.0.0.0',
      'class-e.example': '240.0.0.1',
      'bcast.example': '255.255.255.255',
      'mcast.example': '224.0.0.251',
      'mapped.example': '::ffff:10.0.0.1',
    };
    const resolver: Resolver = async (h) => [{ address: answers[h]!, family: answers[h]!.includes(':') ? 6 : 4 }];
    const spy = spyConnector();
    const t = transport({ allowHosts: [], resolver, baseConnect: spy.connect });
    for (const host of Object.keys(answers)) {
      const r = await t.send(webhook(`http://${host}/hook`));
      // Generic on purpose: the delivery log must not tell a key holder which internal address a name has.
      expect(r.error, host).toBe('address refused: private or reserved address');
    }
    expect(spy.calls).toEqual([]);
  });

  it('connects to the address the guard approved, so DNS is asked once per connection', async () => {
    rx.setMode({ status: 200 });
    const spy = spyConnector();
    const t = transport({
      allowHosts: ['hooks.test'],
      resolver: async () => [{ address: '127.0.0.1', family: 4 }],
      baseConnect: spy.connect,
    });
    const r = await t.send(webhook(`http://hooks.test:${rx.port}/hook`));
    expect(r).toMatchObject({ statusCode: 200, error: null });
    expect(spy.calls).toEqual(['127.0.0.1']);
    expect(rx.received.at(-1)!.headers.host).toBe(`hooks.test:${rx.port}`);
  });
});
