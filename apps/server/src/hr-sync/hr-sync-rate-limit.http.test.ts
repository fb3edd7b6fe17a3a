import { idNumberFor } from '@fundi/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { employee, hrTenant } from './testing/hr-sync-fixtures.js';

/**
 * HR inbound calls carry no API key but a long random webhook key: they are counted per address at the inbound rate
 * (`FUNDI_INBOUND_RATE_PER_MINUTE`), not the lower rate for requests without a key (docs/api.md, "Rate limits").
 */
describe('HR inbound rate limit (SQLite)', () => {
  let s: TestServer;
  let t: Awaited<ReturnType<typeof hrTenant>>;

  beforeAll(async () => {
    s = await startTestServer('sqlite', { anonymousPerMinute: 3, inboundPerMinute: 8 });
    t = await hrTenant(s, 'hr-rate');
  });
  afterAll(() => s?.close());

  it('a bulk HR send passes the anonymous limit, keeps its own, and other keyless requests keep theirs', async () => {
    const enrol = (i: number) =>
      t.post({
        event: 'employee.enrolled',
        data: { ...employee(300 + i, {}, idNumberFor(810_000 + i * 7)), programmeCode: t.code },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await enrol(i)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200]);
    const over = await enrol(9);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);

    const keyless: number[] = [];
    for (let i = 0; i < 4; i++) keyless.push((await s.call('GET', '/api/v1/learners')).status);
    expect(keyless).toEqual([401, 401, 401, 429]);
  });
});
