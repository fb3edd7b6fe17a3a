import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printDashboardLink } from '../bootstrap.js';
import { staffUser } from '../testing/dashboard-client.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

describe("npm start: the demo tenant's dashboard sign-in link", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer('sqlite');
  });
  afterAll(() => s?.close());

  const printed = async () => {
    let out = '';
    await printDashboardLink(s.container, 'http://localhost:3000', (t) => void (out += t));
    return out;
  };

  it('prints nothing without a demo tenant, then the link and how to create the first admin, then only the link', async () => {
    expect(await printed()).toBe('');
    await s.tenant('demo');
    const first = await printed();
    expect(first).toContain('Dashboard: http://localhost:3000/dashboard/sign-in?tenant=demo');
    expect(first).toContain('npm run fundi -- users create --tenant demo');
    await staffUser(s.container, 'demo', 'admin');
    const later = await printed();
    expect(later).toBe('Dashboard: http://localhost:3000/dashboard/sign-in?tenant=demo\n');
  });
});
