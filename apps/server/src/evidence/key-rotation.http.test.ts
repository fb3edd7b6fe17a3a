import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AesGcmSecretBox, useCasesOf } from '@fundi/adapters';
import { HEADER } from '@fundi/application';
import { describeEachStorage } from '@fundi/adapters/testing';
import { evidenceCapability, reposOf, webhookCapability } from '../capabilities/index.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { enrolledLearner } from '../testing/training-fixtures.js';

const OLD = Buffer.alloc(32, 11);
const NEW = Buffer.alloc(32, 12);
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.7\n'),
  Buffer.from('ROTATION-MARKER\n'.repeat(5000)),
  Buffer.from('%%EOF\n'),
]);

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

function multipart(fields: Record<string, string>, data: Buffer): { body: Buffer; type: string } {
  const b = '----fundirotation';
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) =>
    Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
  );
  parts.push(
    Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="file"; filename="p.pdf"\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${b}--\r\n`),
  );
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${b}` };
}

/**
 * Master-key rotation (docs/architecture.md, "Files"): start with the new key and the old one as previous, re-wrap
 * every file's data key and re-seal every webhook secret, then the old key can go: everything still opens.
 */
describeEachStorage(
  'master-key rotation',
  (_get, kind) => {
    let first: TestServer;
    const dir = mkdtempSync(join(tmpdir(), 'fundi-rotation-'));
    const fileStore = { kind: 'local' as const, dir };
    let admin: string;
    let evidenceId: string;
    let subscriptionId: string;
    let secret: string;

    beforeAll(async () => {
      first = await startTestServer(kind, { masterKey: OLD, fileStore });
      admin = (await first.tenant('rot')).key;
      const { learnerId } = await enrolledLearner(first, admin, '/api/v1', {
        code: 'P-ROT',
        idNumber: '9001049818080',
        modules: ['KM-01'],
      });
      const m = multipart({ learnerId, moduleId: 'KM-01', evidenceType: 'portfolio' }, PDF);
      const up = await first.call('POST', '/api/v1/evidence', admin, m.body, { 'content-type': m.type });
      expect(up.status).toBe(201);
      evidenceId = up.body.id;
      const sub = await first.call('POST', '/api/v1/webhook-subscriptions', admin, {
        url: 'http://127.0.0.1:9/hook',
        events: ['learner.created'],
      });
      expect(sub.status).toBe(201);
      subscriptionId = sub.body.id;
      secret = sub.body.secret;
    });
    afterAll(async () => {
      await first?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const download = async (s: TestServer) => {
      const grant = await s.call('GET', `/api/v1/evidence/${evidenceId}/download`, admin);
      expect(grant.status).toBe(200);
      const res = await fetch(grant.body.url);
      return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
    };

    it('without the old key the file does not open; with it as previous it does; after rewrap the new key alone opens everything', async () => {
      const before = new Map(filesUnder(dir).map((f) => [f, readFileSync(f)]));

      // The new key alone cannot read what the old one wrapped: never plaintext, never a wrong byte.
      const alone = await startTestServer(kind, { attach: first.storage, masterKey: NEW, fileStore });
      try {
        expect((await download(alone)).status).not.toBe(200);
      } finally {
        await alone.close();
      }

      const both = await startTestServer(kind, {
        attach: first.storage,
        masterKey: NEW,
        previousMasterKeys: [OLD],
        fileStore,
      });
      try {
        expect((await download(both)).body.equals(PDF)).toBe(true);
        const files = await useCasesOf(both.container, evidenceCapability).evidence.rewrapFiles.execute(1);
        expect(files).toEqual({ rewrapped: 1, files: 1 });
        expect(await useCasesOf(both.container, webhookCapability).resealSecrets.execute()).toBe(1);
        // A second run finds nothing left to do.
        expect(await useCasesOf(both.container, evidenceCapability).evidence.rewrapFiles.execute()).toEqual({
          rewrapped: 0,
          files: 1,
        });
        expect(await useCasesOf(both.container, webhookCapability).resealSecrets.execute()).toBe(0);
      } finally {
        await both.close();
      }

      // Only the header changed: the encrypted content is the same bytes as before.
      const after = filesUnder(dir);
      expect(after.length).toBe(before.size);
      for (const f of after) {
        const was = before.get(f)!;
        const now = readFileSync(f);
        expect(now.length).toBe(was.length);
        expect(now.subarray(HEADER).equals(was.subarray(HEADER))).toBe(true);
        expect(now.subarray(0, HEADER).equals(was.subarray(0, HEADER))).toBe(false);
      }

      const rotated = await startTestServer(kind, { attach: first.storage, masterKey: NEW, fileStore });
      try {
        expect((await download(rotated)).body.equals(PDF)).toBe(true);
        const sub = await reposOf(rotated.container).webhookSubscriptions.findById(
          (await reposOf(rotated.container).tenants.findBySlug('rot'))!.id,
          subscriptionId,
        );
        expect(new AesGcmSecretBox(NEW, 'webhook-secret').open(sub!.secretCiphertext)).toBe(secret);
        expect(() => new AesGcmSecretBox(OLD, 'webhook-secret').open(sub!.secretCiphertext)).toThrow();
      } finally {
        await rotated.close();
      }
    });
  },
  ['sqlite', 'postgres'],
);
