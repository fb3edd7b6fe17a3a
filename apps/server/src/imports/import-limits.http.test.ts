import { createCipheriv } from 'node:crypto';
import { defaultFileStore } from '@fundi/adapters';
import { buildBeforeAll, describeEachStorage, scratchDir } from '@fundi/adapters/testing';
import { IMPORT_MAX_CELLS, IMPORT_MAX_ROW_BYTES } from '@fundi/domain/imports';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startBuiltServer, type BuiltServer } from '../testing/built-server.js';
import { probeHealth, type HealthWaits } from '../testing/health-probe.js';
import { LEARNER_HEADER, learnerLine, multipart } from '../testing/import-fixtures.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { filesUnder } from './imports-http-fixture.js';

/** `size` bytes of noise, the same every run (AES-CTR over zeros). */
function noise(size: number): Buffer {
  return createCipheriv('aes-128-ctr', Buffer.alloc(16, 1), Buffer.alloc(16, 2)).update(Buffer.alloc(size));
}

const MB = 1024 * 1024;

/** What `POST /imports` answers: the import, or the error naming the file. */
interface ImportAnswer {
  id: string;
  error: { details: { field: string; message: string }[] };
}
// The test server's master key (testing/test-server.ts): the built server reads what the test server wrote.
const MASTER_KEY = Buffer.alloc(32, 7);

buildBeforeAll();

/**
 * No question to `/health` waited while the server's event loop worked 200 ms (its main thread's CPU time during the
 * wait), and none waited 3 s on the clock: on this shared 2-core machine a process may wait for a core for a few
 * hundred milliseconds whatever it does, which the CPU time leaves out; a loop held by its own work shows in both.
 */
function expectResponsive(waits: HealthWaits): void {
  expect(waits.worstBusyMs, JSON.stringify(waits)).toBeLessThan(200);
  expect(waits.worstMs, JSON.stringify(waits)).toBeLessThan(3000);
}

/**
 * The built server in a process of its own (the API with its embedded worker, as `npm start` runs it), given files
 * of nonsense and a large import, while a thread of this process asks its `/health` every 20 ms: in a process of its
 * own, the waits measured are the server's alone, not this test's (docs/api.md, "Imports").
 */
describeEachStorage(
  'imports over HTTP: row limits, with the server answering /health throughout',
  (_get, kind) => {
    let s: TestServer;
    let server: BuiltServer;
    let admin: string;
    const dataDir = scratchDir('fundi-import-limits-');
    beforeAll(async () => {
      s = await startTestServer(kind, { fileStore: defaultFileStore(dataDir) });
      admin = (await s.tenant('lim')).key;
      server = await startBuiltServer(s.storage.target!, { dataDir, masterKey: MASTER_KEY });
    }, 60_000);
    afterAll(async () => {
      await server?.stop();
      await s?.close();
    });

    /** `POST /api/v1/imports` to the built server; the answer checked against the served document. */
    const upload = async (data: Buffer | string, options?: Record<string, unknown>) => {
      const fields: Record<string, string> = { type: 'learners' };
      if (options) fields.options = JSON.stringify(options);
      const m = multipart(fields, { name: 'learners.csv', data: Buffer.from(data) });
      const res = await fetch(`${server.url}/api/v1/imports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': m.type },
        body: m.body,
      });
      const body = (await res.json()) as ImportAnswer;
      expect(
        s.validator.checkResponse('POST', '/api/v1/imports', res.status, res.headers.get('content-type'), body),
      ).toEqual([]);
      return { status: res.status, body };
    };
    const imports = async () =>
      (await s.call('GET', '/api/v1/imports?limit=100', admin)).body.pagination.total as number;
    const settled = async (id: string, statuses = ['completed', 'failed']) => {
      for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
        const r = await s.call('GET', `/api/v1/imports/${id}?errorsLimit=5`, admin);
        if (statuses.includes(r.body.status)) return r.body;
        await new Promise((ok) => setTimeout(ok, 100));
      }
      throw new Error(`import ${id} did not finish`);
    };

    it('refuses a 45 MB one-line CSV, 50 MB of random bytes and a 50 MB quoted field within seconds', async () => {
      const files: [string, Buffer, RegExp][] = [
        ['one line of 23 million cells', Buffer.alloc(45 * MB, 'a,'), /^the row on line 1 has more than 200 cells/],
        ['random bytes', noise(50_000_000), /data rows|^the row on line \d+/],
        [
          'one quoted field',
          Buffer.concat([Buffer.from(`${LEARNER_HEADER}\n"`), Buffer.alloc(50_000_000, 'a')]),
          /^the row on line 2 is longer than 65536 bytes/,
        ],
      ];
      const before = await imports();
      const filesBefore = filesUnder(dataDir).length;
      const rssBefore = server.rssMb();
      const probe = probeHealth(server.url, server.pid);
      const took: Record<string, number> = {};
      for (const [what, data, error] of files) {
        const started = performance.now();
        const r = await upload(data);
        took[what] = Math.round(performance.now() - started);
        expect(r.status, what).toBe(422);
        expect(r.body.error.details, what).toEqual([{ field: 'file', message: expect.stringMatching(error) }]);
        expect(took[what], what).toBeLessThan(15_000);
      }
      // Whatever the server does after answering (the rest of a body it reads and drops) is inside the window too.
      await new Promise((ok) => setTimeout(ok, 500));
      const waits = await probe.stop();
      const rssAfter = server.rssMb();
      console.info(
        `row limits (${kind}): upload ms ${JSON.stringify(took)}, /health ${JSON.stringify(waits)}, RSS ${rssBefore.toFixed(0)} -> ${rssAfter.toFixed(0)} MB`,
      );
      expect(waits.failures).toBe(0);
      expect(waits.answers).toBeGreaterThan(10);
      expectResponsive(waits);
      expect(rssAfter - rssBefore).toBeLessThan(200);
      expect(await imports()).toBe(before);
      expect(filesUnder(dataDir).length).toBe(filesBefore);
    }, 120_000);

    it('takes rows up to the limits, and answers /health through a dry run and confirm of 20,000 rows', async () => {
      const wide = [`${LEARNER_HEADER}${',extra'.repeat(IMPORT_MAX_CELLS - 6)},employer`];
      wide.push(`${learnerLine(900_001)}${','.repeat(IMPORT_MAX_CELLS - 6)},${'E'.repeat(200)}`);
      const edge = await upload(`${wide.join('\n')}\n`);
      expect(edge.status, JSON.stringify(edge.body)).toBe(202);
      const long = `${LEARNER_HEADER},employer\n${learnerLine(900_002)},"${'x'.repeat(IMPORT_MAX_ROW_BYTES)}"\n`;
      const tooLong = await upload(long);
      expect(tooLong.status).toBe(422);
      expect(tooLong.body.error.details).toEqual([
        { field: 'file', message: expect.stringMatching(/^the row on line 2 is longer than 65536 bytes/) },
      ]);
      expect((await settled(edge.body.id, ['validated', 'failed'])).validRows).toBe(1);

      const rows = [LEARNER_HEADER];
      for (let i = 0; i < 20_000; i++) rows.push(learnerLine(910_000 + i));
      const probe = probeHealth(server.url, server.pid);
      const r = await upload(`${rows.join('\n')}\n`, { dryRun: false });
      expect(r.status).toBe(202);
      const done = await settled(r.body.id);
      const waits = await probe.stop();
      console.info(`20,000-row import (${kind}): /health ${JSON.stringify(waits)}`);
      expect(done.status).toBe('completed');
      expect(done.importedRows).toBe(20_000);
      expect(waits.failures).toBe(0);
      expectResponsive(waits);
    }, 180_000);
  },
  ['sqlite', 'postgres'],
);
