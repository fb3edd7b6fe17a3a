import { expect } from 'vitest';
import { staffUser } from '../testing/dashboard-client.js';
import { describeServerSuite } from '../testing/server-suite.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { enrolledLearner } from '../testing/training-fixtures.js';
import { idNumberFor } from '../testing/import-fixtures.js';

/** Shared by the evidence import HTTP tests (evidence-import-*.http.test.ts): paths, the file, the server. */
export const A = '/api/v1';
export const B = '/api/v1/tenants/evimp';
export const V1 = '/v1/tenants/evimp';
export const HEADER = 'id_number,learner_id,module_code,evidence_type,filename,description';
export const PDF = Buffer.concat([
  Buffer.from('%PDF-1.7\n'),
  Buffer.from('imported evidence\n'.repeat(200)),
  Buffer.from('%%EOF\n'),
]);

export async function count(s: TestServer, sql: string): Promise<number> {
  return Number((await s.storage.db!.first<{ n: number }>(sql))!.n);
}

/**
 * A server on `kind` with a worker and tenant `evimp` (an admin key and dashboard user), a learner enrolled in
 * KM-01 and PM-01 (`idNumber`), and a learner enrolled in nothing.
 */
export async function startEvidenceImportServer(kind: Parameters<typeof startTestServer>[0]) {
  const idNumber = idNumberFor(5100);
  const s = await startTestServer(kind, { worker: {} });
  const admin = (await s.tenant('evimp')).key;
  await staffUser(s.container, 'evimp', 'admin');
  const { learnerId } = await enrolledLearner(s, admin, A, { code: 'P-EVIMP', idNumber, modules: ['KM-01', 'PM-01'] });
  const unenrolled = await s.call('POST', `${A}/learners`, admin, {
    firstName: 'Not',
    lastName: 'Enrolled',
    idNumber: idNumberFor(5101),
  });
  expect(unenrolled.status).toBe(201);
  return { s, admin, learnerId, idNumber };
}

/** An evidence import HTTP suite on SQLite and Postgres, each against its own `startEvidenceImportServer`. */
export function describeEvidenceImportSuite(
  name: string,
  suite: (world: () => Awaited<ReturnType<typeof startEvidenceImportServer>>) => void,
): void {
  describeServerSuite(name, startEvidenceImportServer, suite);
}
