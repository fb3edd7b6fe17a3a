import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestReceiver } from '@fundi/adapters/testing';
import { startTestServer, type TestServer } from '../testing/test-server.js';

// The worker polls every 30 s here: only the nudge of the API's own write can deliver within the bound.
describe('an API write wakes the in-process worker at once', () => {
  let s: TestServer;
  let rx: TestReceiver;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('sqlite', { worker: { pollMs: 30_000 } });
    rx = await s.receiver();
    key = (await s.tenant('nudge')).key;
    expect(
      (await s.call('POST', '/api/v1/webhook-subscriptions', key, { url: rx.url, events: ['learner.created'] })).status,
    ).toBe(201);
  });
  afterAll(async () => {
    await s?.close();
    await rx?.close();
  });

  it('learner.created reaches the receiver well before the next poll', async () => {
    const started = Date.now();
    expect(
      (
        await s.call('POST', '/api/v1/learners', key, {
          firstName: 'Ayanda',
          lastName: 'Zulu',
          idNumber: '9001049818080',
        })
      ).status,
    ).toBe(201);
    await rx.waitFor(1, 3000);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(rx.received[0]!.headers['x-webhook-event']).toBe('learner.created');
  });
});
