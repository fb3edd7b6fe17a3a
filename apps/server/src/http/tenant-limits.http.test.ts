import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenants, reposOf } from '../capabilities/index.js';
import { useCasesOf } from '@fundi/adapters';
import { startTestServer, type TestServer } from '../testing/test-server.js';

describe('tenant limit overrides take effect on the next request', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('sqlite');
    key = (await s.tenant('lim', 'pilot')).key;
  });
  afterAll(async () => s.close());

  it('a lowered per-minute limit refuses the request after it, with the new numbers in the headers', async () => {
    expect((await s.call('GET', '/api/v1/learners', key)).headers.get('x-ratelimit-limit')).toBe('60');
    await useCasesOf(s.container, tenants).reconfigureTenant.execute('lim', { overrides: { perMinute: 3 } });
    const second = await s.call('GET', '/api/v1/learners', key);
    expect(second.headers.get('x-ratelimit-limit')).toBe('3');
    expect(second.headers.get('x-ratelimit-remaining')).toBe('1');
    expect((await s.call('GET', '/api/v1/learners', key)).status).toBe(200);
    const refused = await s.call('GET', '/api/v1/learners', key);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('the audit log records the change', async () => {
    const tenant = await reposOf(s.container).tenants.findBySlug('lim');
    const audit = await reposOf(s.container).audit.list(tenant!.id, { limit: 10 });
    expect(audit.map((a) => a.action)).toContain('tenant.reconfigured');
  });
});
