import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.js';

// Every DELETE operation of the served document, tried with an integration key: integrations never delete.
describe('DELETE routes need a delete scope', () => {
  let s: TestServer;
  let integration: string;
  let admin: string;
  beforeAll(async () => {
    s = await startTestServer('memory');
    admin = (await s.tenant('del-scope')).key;
    integration = (await s.key('del-scope', 'integration')).key;
  });
  afterAll(() => s.close());

  it('refuses the integration role on every DELETE of Form A and Form B with 403', async () => {
    const doc = (await s.call('GET', '/v1/openapi.json')).body as {
      paths: Record<string, Record<string, { security?: unknown }>>;
    };
    const deletes = Object.keys(doc.paths).filter((p) => doc.paths[p]!.delete && p.startsWith('/api/v1/'));
    expect(deletes.length).toBeGreaterThanOrEqual(6);
    for (const path of deletes) {
      const concrete = path.replace('{slug}', 'del-scope').replace(/\{\w+\}/g, 'x_123');
      const res = await s.call('DELETE', concrete, integration);
      expect(res.status, path).toBe(403);
      expect(JSON.stringify(res.body), path).toMatch(/:delete/);
    }
  });

  it('lets the admin role through the scope check (the operation then answers 404 for an unknown id)', async () => {
    for (const path of ['/api/v1/programmes/prg_unknown', '/api/v1/webhook-subscriptions/whs_unknown']) {
      expect((await s.call('DELETE', path, admin)).status, path).toBe(404);
    }
  });
});
