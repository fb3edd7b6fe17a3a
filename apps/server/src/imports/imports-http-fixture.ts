import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describeServerSuite } from '../testing/server-suite.js';
import { startTestServer } from '../testing/test-server.js';

/** Shared by the import HTTP tests of tenant `imp` (learner-, training-, import-*.http.test.ts). */
export const A = '/api/v1';
export const B = '/api/v1/tenants/imp';
export const V1 = '/v1/tenants/imp';

/** A server on `kind` with a worker, and the admin key of tenant `imp`. */
export async function startImportServer(kind: Parameters<typeof startTestServer>[0]) {
  const s = await startTestServer(kind, { worker: {} });
  const admin = (await s.tenant('imp')).key;
  return { s, admin };
}

/** Every file under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** An import HTTP suite on SQLite and Postgres, each against its own `startImportServer`. */
export function describeImportSuite(
  name: string,
  suite: (world: () => Awaited<ReturnType<typeof startImportServer>>) => void,
): void {
  describeServerSuite(name, startImportServer, suite);
}
