import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@fundi/adapters';
import { buildBeforeAll, until } from '@fundi/adapters/testing';
import { filesUnder, multipart } from './evidence/evidence-http-fixture.js';
import { call, enrolled, logLines, startServer, stopServers } from './testing/demo-server-process.js';
import { begunRequest, pdf, refused, slowDownload, slowUpload } from './evidence/slow-clients-fixture.js';

afterAll(stopServers);
buildBeforeAll();

describe('a rolling deploy: SIGTERM on the API process', () => {
  it('finishes a slow upload and a slow download begun before it, refuses new connections, /ready 503, exits 0 in time', async () => {
    const graceMs = 20_000;
    const s = await startServer({ FUNDI_SHUTDOWN_GRACE_MS: String(graceMs) });
    const learnerId = await enrolled(s);
    // A large file to download slowly: more than the sockets' buffers hold, so its answer stays in flight.
    const big = pdf(20 * 1024 * 1024);
    const m = multipart({ learnerId, moduleId: 'KM-01', evidenceType: 'portfolio' }, { name: 'big.pdf', data: big });
    const stored = await fetch(`${s.url}/api/v1/tenants/demo/evidence`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.key}`, 'content-type': m.type },
      body: m.body,
    });
    expect(stored.status).toBe(201);
    const link = await call(
      s,
      'GET',
      `/api/v1/tenants/demo/evidence/${((await stored.json()) as { id: string }).id}/download`,
    );
    expect(link.status).toBe(200);

    const signed = new URL(link.body.url);
    const download = slowDownload(s, signed.pathname + signed.search, { every: 1024 * 1024, pauseMs: 250 });
    const upload = slowUpload(s, learnerId, pdf(1.2 * 1024 * 1024), { chunks: 12, gapMs: 300, after: 2 });
    const ready = await begunRequest(s.port, '/ready');
    const health = await begunRequest(s.port, '/health');
    await Promise.all([download.reading, upload.sent]);

    const signalled = performance.now();
    s.child.kill('SIGTERM');
    await until(() => refused(s.port), 10_000, 'new connections to be refused');
    const readyAnswer = await ready.finish();
    expect(readyAnswer).toMatch(/^HTTP\/1\.1 503 /);
    expect(readyAnswer).toMatch(/\r\nConnection: close\r\n/i);
    expect(readyAnswer).toContain('"reason":"shutting down"');
    expect(await health.finish()).toMatch(/^HTTP\/1\.1 200 /);

    const [up, down] = await Promise.all([upload.done, download.done]);
    expect(up).toMatchObject({ status: 201, error: null });
    expect(up.headers.connection).toBe('close');
    expect(down).toMatchObject({ status: 200, error: null, bytes: big.length });
    const { code, at } = await s.exit;
    expect(code).toBe(0);
    expect(at - signalled).toBeLessThan(graceMs);
    // The upload took seconds after the signal: the process waited for it.
    expect(at - signalled).toBeGreaterThan(2000);
    expect(logLines(s, 'stopped')).toMatchObject([{ code: 0 }]);
  }, 120_000);

  it('cuts a request that outlasts the grace, logs it, keeps nothing of it and still exits in time', async () => {
    const graceMs = 1500;
    const s = await startServer({ FUNDI_SHUTDOWN_GRACE_MS: String(graceMs) });
    const learnerId = await enrolled(s);
    const upload = slowUpload(s, learnerId, pdf(1.2 * 1024 * 1024), { chunks: 40, gapMs: 250, after: 2 });
    await upload.sent;
    const signalled = performance.now();
    s.child.kill('SIGTERM');
    const { code, at } = await s.exit;
    expect(code).toBe(1);
    expect(at - signalled).toBeLessThan(graceMs + 500);
    expect((await upload.done).status).toBeNull();
    expect(logLines(s, 'shutdown grace ran out: requests cut')).toMatchObject([
      { requests: [{ method: 'POST', path: '/api/v1/tenants/demo/evidence', stage: 'receiving' }] },
    ]);
    // No evidence and no stored file: at most the store's temporary part of the cut upload, if the process exited
    // before its clean-up ran.
    const db = openDatabase({ kind: 'sqlite', filename: join(s.dataDir, 'fundi.sqlite') });
    expect(await db.all('SELECT id FROM evidence')).toEqual([]);
    await db.close();
    const files = join(s.dataDir, 'files');
    expect((existsSync(files) ? filesUnder(files) : []).filter((f) => !f.endsWith('.part'))).toEqual([]);
  }, 120_000);

  it('stops at once on a second signal, naming what it cut', async () => {
    const s = await startServer({ FUNDI_SHUTDOWN_GRACE_MS: '20000' });
    const learnerId = await enrolled(s);
    const upload = slowUpload(s, learnerId, pdf(1.2 * 1024 * 1024), { chunks: 40, gapMs: 250, after: 2 });
    await upload.sent;
    s.child.kill('SIGTERM');
    await until(() => refused(s.port), 10_000, 'the drain to begin');
    const second = performance.now();
    s.child.kill('SIGINT');
    const { code, at } = await s.exit;
    expect(code).toBe(1);
    expect(at - second).toBeLessThan(2000);
    expect(logLines(s, 'second SIGINT: stopping now')).toMatchObject([
      { requests: [{ method: 'POST', path: '/api/v1/tenants/demo/evidence', stage: 'receiving' }] },
    ]);
  }, 120_000);
});
