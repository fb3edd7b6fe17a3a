import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FixedClock } from '@fundi/testing';
import { describeServerSuite } from '../testing/server-suite.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { enrolledLearner as enrolled } from '../testing/training-fixtures.js';

/** Shared by the evidence HTTP tests (evidence-*.http.test.ts): files, request helpers and the server. */
let programmes = 0;
export const enrolledLearner = (s: TestServer, key: string, prefix: string, idNumber = '9001049818080') =>
  enrolled(s, key, prefix, { code: `P-EV${++programmes}`, idNumber, modules: ['KM-01', 'PM-01'] });

export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4e70000000049454e44ae426082',
  'hex',
);
export const SECRET = 'CONFIDENTIAL-PORTFOLIO-MARKER-7731';
export const PDF = Buffer.concat([
  Buffer.from('%PDF-1.7\n'),
  Buffer.from(`${SECRET}\n`.repeat(4000)),
  Buffer.from('%%EOF\n'),
]);

export function multipart(
  fields: Record<string, string>,
  file?: { name: string; data: Buffer },
): { body: Buffer; type: string } {
  const b = `----fundi${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(
      Buffer.from(
        `--${b}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${b}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${b}` };
}

/** Every file under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** A server on `kind` with tenants `evi` (admin) and `evi-other` (other), and a learner enrolled in `evi`. */
export async function startEvidenceServer(kind: Parameters<typeof startTestServer>[0], clock: FixedClock) {
  const s = await startTestServer(kind, { clock });
  const admin = (await s.tenant('evi')).key;
  const other = (await s.tenant('evi-other')).key;
  const { learnerId } = await enrolledLearner(s, admin, '/api/v1');
  return { s, admin, other, learnerId };
}

/** Uploads through Form B multipart to `${prefix}/evidence` on the server `server()` returns. */
export const uploader =
  (server: () => TestServer) =>
  (key: string, prefix: string, fields: Record<string, string>, file?: { name: string; data: Buffer }) => {
    const m = multipart(fields, file);
    return server().call('POST', `${prefix}/evidence`, key, m.body, { 'content-type': m.type });
  };

/** What an evidence suite's tests share: the server of `startEvidenceServer`, its clock, and an uploader to it. */
export interface EvidenceWorld {
  s: TestServer;
  admin: string;
  other: string;
  learnerId: string;
  clock: FixedClock;
  upload: ReturnType<typeof uploader>;
}

/** An evidence HTTP suite on SQLite and Postgres, each against its own `startEvidenceServer` on a fixed clock. */
export function describeEvidenceSuite(name: string, suite: (world: () => EvidenceWorld) => void): void {
  describeServerSuite(
    name,
    async (kind) => {
      const clock = new FixedClock(new Date());
      const started = await startEvidenceServer(kind, clock);
      return { ...started, clock, upload: uploader(() => started.s) };
    },
    suite,
  );
}
