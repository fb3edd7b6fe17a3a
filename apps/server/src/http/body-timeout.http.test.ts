import { request, type IncomingHttpHeaders } from 'node:http';
import { expect, it } from 'vitest';
import { enrolledLearner, filesUnder, multipart, PDF } from '../evidence/evidence-http-fixture.js';
import { describeServerSuite } from '../testing/server-suite.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

const IDLE_MS = 1000;
const VALID = { firstName: 'Thandi', lastName: 'Nkosi', idNumber: '9001049818080' };

/** An error envelope of either form, or a resource. */
type Body = { error: { code: string; details: unknown } } & Record<string, unknown>;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Body;
  /** From the first byte sent to the answer. */
  ms: number;
  /** Resolves when the connection has closed. */
  closed: Promise<void>;
}

/**
 * Sends a request's head and `parts` of its body, `gapMs` apart, and ends it only when `end` is set: a body that
 * stops half way is left hanging. Resolves with the answer, checked against the served OpenAPI document.
 */
function send(
  s: TestServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  parts: Buffer[],
  o: { gapMs?: number; end?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let answered = false;
    const req = request(`${s.url}${path}`, { method, headers, agent: false });
    let closed: Promise<void> = Promise.resolve();
    req.once('socket', (socket) => {
      closed = new Promise((ok) => socket.once('close', () => ok()));
    });
    // Once answered, the server closing the connection under the unfinished request is expected.
    req.on('error', (e) => (answered ? undefined : reject(e)));
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const body = (text ? JSON.parse(text) : null) as Body;
        const problems = s.validator.checkResponse(
          method,
          path,
          res.statusCode!,
          res.headers['content-type'] ?? null,
          body,
        );
        if (problems.length) return reject(new Error(`not as documented: ${problems.join('; ')}`));
        resolve({ status: res.statusCode!, headers: res.headers, body, ms: performance.now() - started, closed });
      });
    });
    req.flushHeaders();
    void (async () => {
      for (const [i, part] of parts.entries()) {
        if (i > 0) await new Promise((ok) => setTimeout(ok, o.gapMs ?? 0));
        if (!answered) req.write(part);
      }
      if (o.end && !answered) req.end();
    })();
  });
}

/** Resolves when `p` does, failing after `ms`. */
const within = (p: Promise<void>, ms: number, what: string) =>
  Promise.race([p, new Promise((_, fail) => setTimeout(() => fail(new Error(`${what} within ${ms} ms`)), ms))]);

/** A stalled body is answered 408 in its form's envelope soon after the body timeout, and its connection closed. */
async function expectTimedOut(a: Answer, form: 'A' | 'B'): Promise<void> {
  expect(a.status).toBe(408);
  expect(a.body.error).toMatchObject(
    form === 'A' ? { code: 'request_timeout', details: [] } : { code: 'REQUEST_TIMEOUT', details: {} },
  );
  expect(a.headers.connection).toBe('close');
  expect(a.ms).toBeGreaterThanOrEqual(IDLE_MS * 0.9);
  expect(a.ms).toBeLessThan(IDLE_MS + 10_000);
  await within(a.closed, 10_000, 'the server closes the connection');
}

describeServerSuite(
  'request bodies that stall',
  async (kind) => {
    const s = await startTestServer(kind, { bodyIdleTimeoutMs: IDLE_MS });
    const key = (await s.tenant('slow')).key;
    const { learnerId } = await enrolledLearner(s, key, '/api/v1');
    const count = async (what: string) =>
      (await s.call('GET', `/api/v1/${what}?limit=1`, key)).body.pagination.total as number;
    /** What a refused upload must leave as it was: evidence records and stored files. */
    const state = async () => ({ evidence: await count('evidence'), files: s.filesDir ? filesUnder(s.filesDir) : [] });
    return { s, key, learnerId, count, state };
  },
  (world) => {
    const json = Buffer.from(JSON.stringify(VALID));

    it('answers a JSON body that stops half way 408 in either form, closes its connection and changes nothing', async () => {
      const { s, key, count } = world();
      const before = await count('learners');
      const head = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const declared = { ...head, 'content-length': String(json.length) };
      await expectTimedOut(await send(s, 'POST', '/api/v1/learners', declared, [json.subarray(0, 10)]), 'A');
      await expectTimedOut(
        await send(s, 'POST', '/api/v1/tenants/slow/learners', declared, [json.subarray(0, 10)]),
        'B',
      );
      // Chunked, without a declared length.
      await expectTimedOut(await send(s, 'POST', '/v1/tenants/slow/learners', head, [json.subarray(0, 10)]), 'B');
      expect(await count('learners')).toBe(before);
    });

    it('reads a body to its end however long it takes in all, while it keeps arriving', async () => {
      const { s, key } = world();
      const body = Buffer.from(JSON.stringify({ ...VALID, idNumber: '8001015009087' }));
      // 24 parts a tenth of the timeout apart: 2.3 s in all, and a stall of up to 0.9 s on a loaded machine between
      // two parts still leaves the body arriving within the timeout.
      const parts = Array.from({ length: 24 }, (_, i) =>
        body.subarray((i * body.length) / 24, ((i + 1) * body.length) / 24),
      );
      const a = await send(
        s,
        'POST',
        '/api/v1/learners',
        { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': String(body.length) },
        parts,
        { gapMs: IDLE_MS * 0.1, end: true },
      );
      expect(a.status).toBe(201);
      expect(a.ms).toBeGreaterThan(IDLE_MS * 2);
    });

    it('answers a multipart upload that stalls in its file 408 and keeps nothing, in either form', async () => {
      const { s, key, learnerId, state } = world();
      const before = await state();
      const m = multipart({ learnerId, moduleId: 'KM-01', evidenceType: 'portfolio' }, { name: 'p.pdf', data: PDF });
      const headers = {
        authorization: `Bearer ${key}`,
        'content-type': m.type,
        'content-length': String(m.body.length),
      };
      const half = [m.body.subarray(0, m.body.length / 2)];
      await expectTimedOut(await send(s, 'POST', '/api/v1/tenants/slow/evidence', headers, half), 'B');
      await expectTimedOut(await send(s, 'POST', '/api/v1/evidence', headers, half), 'A');
      expect(await state()).toEqual(before);
      // Stalled in a text field, before the file part.
      const fieldsOnly = [m.body.subarray(0, m.body.indexOf('portfolio'))];
      await expectTimedOut(await send(s, 'POST', '/api/v1/tenants/slow/evidence', headers, fieldsOnly), 'B');
      expect(await state()).toEqual(before);
    });

    it('answers a signed PUT that stalls 408, stores nothing, and its URL still takes the whole file', async () => {
      const { s, key, learnerId, state } = world();
      const grant = await s.call('POST', '/api/v1/evidence/upload', key, {
        learnerId,
        moduleId: 'KM-01',
        evidenceType: 'portfolio',
        filename: 'slow.pdf',
        size: PDF.length,
      });
      expect(grant.status).toBe(201);
      const before = await state();
      const path = new URL(grant.body.uploadUrl).pathname;
      const headers = { 'content-type': 'application/pdf', 'content-length': String(PDF.length) };
      await expectTimedOut(await send(s, 'PUT', path, headers, [PDF.subarray(0, 70_000)]), 'A');
      expect(await state()).toEqual(before);
      expect((await s.call('GET', `/api/v1/evidence/${grant.body.evidenceId}`, key)).status).toBe(404);
      const whole = await send(s, 'PUT', path, headers, [PDF], { end: true });
      expect(whole.status).toBe(201);
      expect(whole.body).toMatchObject({ id: grant.body.evidenceId, size: PDF.length, status: 'submitted' });
    });
  },
);
