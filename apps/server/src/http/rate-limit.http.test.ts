import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable } from '@fundi/adapters/testing';
import { startTestServer, type CallResult, type TestServer } from '@fundi/server/testing';

const pgUp = await postgresAvailable();
const LIMIT = 60; // pilot plan, per minute (docs/api.md, "Rate limits")

type Call = (i: number) => Promise<CallResult>;

/**
 * Sends LIMIT + 1 requests with a fresh key. Windows are fixed minutes of the wall clock, so if a minute boundary
 * falls inside the burst the counts restart; then the burst is repeated once with another fresh key.
 */
async function burst(freshCall: () => Promise<Call>): Promise<CallResult[]> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const call = await freshCall();
    const out = [];
    for (let i = 0; i <= LIMIT; i++) out.push(await call(i));
    if (new Set(out.map((r) => r.headers.get('x-ratelimit-reset'))).size === 1) return out;
  }
  throw new Error('two bursts in a row crossed a minute boundary');
}

function expectHeaders(r: { headers: Headers }) {
  const limit = r.headers.get('x-ratelimit-limit');
  const remaining = r.headers.get('x-ratelimit-remaining');
  const reset = Number(r.headers.get('x-ratelimit-reset'));
  expect(limit).toMatch(/^\d+$/);
  expect(remaining).toMatch(/^\d+$/);
  expect(Number.isInteger(reset)).toBe(true);
  expect(reset).toBeGreaterThan(Date.now() / 1000 - 1);
  expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
}

describe('rate limits over HTTP', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer('sqlite', { anonymousPerMinute: 1000 });
  });
  afterAll(async () => s?.close());

  it('pilot: 60 per minute per key, the 61st is 429 with Retry-After; Remaining counts down', async () => {
    let n = 0;
    let key = '';
    const out = await burst(async () => {
      key = (await s.tenant(`pilot-${++n}`, 'pilot')).key;
      return () => s.call('GET', '/api/v1/learners?limit=1', key);
    });
    out.slice(0, LIMIT).forEach((r, i) => {
      expect(r.status, `request ${i + 1}`).toBe(200);
      expect(r.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
      expectHeaders(r);
    });
    const remaining = out.map((r) => Number(r.headers.get('x-ratelimit-remaining')));
    expect(remaining.slice(0, LIMIT)).toEqual(Array.from({ length: LIMIT }, (_, i) => LIMIT - 1 - i));
    const last = out[LIMIT]!;
    expect(last.status).toBe(429);
    expect(last.body.error.code).toBe('rate_limited');
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(last.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
    expectHeaders(last);
    const b = await s.call('GET', `/v1/tenants/pilot-${n}/learners`, key);
    expect(b.status).toBe(429);
    expect(b.body.error.code).toBe('RATE_LIMITED');
  });

  it('every answer carries the headers: success, 401, 404, 422/400, 403, and the OpenAPI document', async () => {
    const key = (await s.tenant('headers', 'pilot')).key;
    const answers = [
      await s.call('GET', '/api/v1/learners', key),
      await s.call('GET', '/api/v1/learners'),
      await s.call('GET', '/api/v1/learners', 'fnd_live_unknown'),
      await s.call('GET', '/api/v1/learners/lrn_00000000000000000000000000', key),
      await s.call('GET', '/api/v1/nothing-here', key),
      await s.call('POST', '/api/v1/learners', key, { firstName: 'X' }),
      await s.call('GET', '/v1/tenants/headers/learners?limit=0', key),
      await s.call('GET', '/v1/tenants/other/learners', key),
      await s.call('GET', '/v1/openapi.json'),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 401, 401, 404, 404, 422, 400, 403, 200]);
    for (const r of answers) expectHeaders(r);
    const keyed = answers
      .filter((_, i) => [0, 3, 4, 5, 6, 7].includes(i))
      .map((r) => Number(r.headers.get('x-ratelimit-remaining')));
    expect(keyed).toEqual([...keyed].sort((x, y) => y - x));
    expect(new Set(keyed).size).toBe(keyed.length);
  });

  it('unauthenticated requests are limited per client address', async () => {
    const anon = await startTestServer('memory', { anonymousPerMinute: 3 });
    try {
      const out = [];
      for (let i = 0; i < 4; i++) out.push(await anon.call('GET', '/api/v1/learners'));
      // A minute boundary inside these 4 quick requests would restart the count; accept that rare case.
      if (new Set(out.map((r) => r.headers.get('x-ratelimit-reset'))).size === 1) {
        expect(out.map((r) => r.status)).toEqual([401, 401, 401, 429]);
        expect(out[3]!.headers.get('retry-after')).toMatch(/^\d+$/);
      }
      expect(out[0]!.headers.get('x-ratelimit-limit')).toBe('3');
    } finally {
      await anon.close();
    }
  });
});

(pgUp ? describe : describe.skip)('rate limits shared by two servers on one Postgres', () => {
  let one: TestServer;
  let two: TestServer;
  beforeAll(async () => {
    one = await startTestServer('postgres');
    two = await startTestServer('postgres', { attach: one.storage });
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('requests split between the servers still hit 429 at limit + 1', async () => {
    let n = 0;
    const out = await burst(async () => {
      const key = (await one.tenant(`shared-${++n}`, 'pilot')).key;
      return (i) => (i % 2 === 0 ? one : two).call('GET', '/api/v1/learners?limit=1', key);
    });
    expect(out.slice(0, LIMIT).every((r) => r.status === 200)).toBe(true);
    expect(out[LIMIT]!.status).toBe(429);
    expect(out[LIMIT]!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(Number(out[LIMIT - 1]!.headers.get('x-ratelimit-remaining'))).toBe(0);
  });
});
