import { staffUser } from '../testing/dashboard-client.js';
import { describeServerSuite } from '../testing/server-suite.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

/**
 * Sign-in attempts count in fixed 15-minute windows (docs/dashboard.md): a test whose attempts straddled the end of
 * one would see the count start again. Waits out the window's last 30 seconds.
 */
export async function awayFromWindowEnd(): Promise<void> {
  const left = 900_000 - (Date.now() % 900_000);
  if (left < 30_000) await new Promise((ok) => setTimeout(ok, left + 100));
}

export const XSS = '<img src=x onerror=alert(1)>';

/**
 * The server the dashboard HTTP tests share per storage: tenant "web" (its API key returned) with an admin and a
 * viewer, and tenant "web-other" with an admin.
 */
export async function startDashboardServer(
  kind: Parameters<typeof startTestServer>[0],
  opts: Parameters<typeof startTestServer>[1] = {},
): Promise<{ s: TestServer; apiKey: string }> {
  const s = await startTestServer(kind, opts);
  const apiKey = (await s.tenant('web')).key;
  await s.tenant('web-other');
  await staffUser(s.container, 'web', 'admin');
  await staffUser(s.container, 'web', 'viewer');
  await staffUser(s.container, 'web-other', 'admin');
  return { s, apiKey };
}

/**
 * A dashboard HTTP suite on SQLite and Postgres, each against its own `startDashboardServer` (`opts`: the test
 * server's, such as a worker for pages whose work runs in the background).
 */
export function describeDashboardSuite(
  name: string,
  suite: (world: () => { s: TestServer; apiKey: string }) => void,
  opts: Parameters<typeof startTestServer>[1] = {},
): void {
  describeServerSuite(name, (kind) => startDashboardServer(kind, opts), suite);
}
