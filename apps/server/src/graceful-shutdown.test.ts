import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@fundi/adapters';
import { buildBeforeAll, REPO_ROOT, until } from '@fundi/adapters/testing';
import { filesUnder, multipart } from './evidence/evidence-http-fixture.js';
import { programmeBody } from './testing/training-fixtures.js';

const SERVER_MAIN = join(REPO_ROOT, 'apps/server/dist/main.js');

/** A PDF of `bytes` bytes: the magic number, filler, the end marker. */
const pdf = (bytes: number) =>
  Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(bytes - 15, 'x'), Buffer.from('\n%%EOF')]);

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/**
 * A client that keeps its connection open after an answer, as browsers and proxies do: only the server's
 * `Connection: close` (or its closing the idle connection) ends it.
 */
const keepAlive = () => new Agent({ keepAlive: true, maxSockets: 1 });

interface Server {
  child: ChildProcess;
  url: string;
  port: number;
  key: string;
  dataDir: string;
  /** Everything the process wrote to stdout so far (its log lines and the banner). */
  output(): string;
  /** The exit code, and when the process exited (performance.now()). */
  exit: Promise<{ code: number | null; at: number }>;
}

const started: Server[] = [];
afterAll(() => {
  for (const s of started) {
    if (s.child.exitCode === null) s.child.kill('SIGKILL');
    rmSync(s.dataDir, { recursive: true, force: true });
  }
});

/** The built server, as `npm start` runs it, on a fresh SQLite data dir and a free port; resolves once it serves. */
async function startServer(env: Record<string, string>): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fundi-shutdown-'));
  const child = spawn(process.execPath, [SERVER_MAIN], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DATABASE_URL: '', PORT: '0', HOST: '127.0.0.1', FUNDI_DATA_DIR: dataDir, ...env },
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  const exit = new Promise<{ code: number | null; at: number }>((ok) =>
    child.once('exit', (code) => ok({ code, at: performance.now() })),
  );
  const server = { child, dataDir, output: () => out, exit } as Server;
  started.push(server);
  await until(() => /Try: curl/.test(out) || child.exitCode !== null, 60_000, 'the server to start');
  server.url = /Fundi is serving at (http:\/\/\S+)/.exec(out)![1]!;
  server.port = Number(new URL(server.url).port);
  server.key = /^\s+(fnd_live_\S+)$/m.exec(out)![1]!;
  return server;
}

/** A JSON call to the server with its demo tenant's key. */
async function call(
  s: Server,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: { id: string; url: string } }> {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { id: string; url: string } };
}

/** A learner enrolled in a programme of the demo tenant: what an evidence upload names. */
async function enrolled(s: Server): Promise<string> {
  const learner = await call(s, 'POST', '/api/v1/tenants/demo/learners', {
    firstName: 'Thandi',
    lastName: 'Nkosi',
    idNumber: '9001049818080',
  });
  expect(learner.status).toBe(201);
  expect((await call(s, 'POST', '/api/v1/tenants/demo/programmes', programmeBody('P-SD'))).status).toBe(201);
  const enrolment = await call(s, 'POST', '/api/v1/tenants/demo/enrolments', {
    learnerId: learner.body.id,
    programmeCode: 'P-SD',
    startDate: '2026-01-10',
  });
  expect(enrolment.status).toBe(201);
  return learner.body.id;
}

interface Outcome {
  status: number | null;
  headers: Record<string, unknown>;
  bytes: number;
  error: string | null;
}

/**
 * A Form B multipart upload of `file`, its bytes sent in `chunks` pieces `gapMs` apart. `sent` resolves once
 * `after` pieces are out; `done` with the answer, or with the error that cut it.
 */
function slowUpload(s: Server, learnerId: string, file: Buffer, o: { chunks: number; gapMs: number; after: number }) {
  const m = multipart(
    { learnerId, moduleId: 'KM-01', evidenceType: 'portfolio' },
    { name: 'portfolio.pdf', data: file },
  );
  let markSent: () => void = () => {};
  const sent = new Promise<void>((ok) => {
    markSent = ok;
  });
  const done = new Promise<Outcome>((resolve) => {
    const req = request(`${s.url}/api/v1/tenants/demo/evidence`, {
      method: 'POST',
      agent: keepAlive(),
      headers: {
        authorization: `Bearer ${s.key}`,
        'content-type': m.type,
        'content-length': String(m.body.length),
      },
    });
    req.on('error', (e) => resolve({ status: null, headers: {}, bytes: 0, error: e.message }));
    req.on('response', (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes, error: null }));
      res.on('error', (e) => resolve({ status: res.statusCode!, headers: res.headers, bytes, error: e.message }));
    });
    void (async () => {
      const size = Math.ceil(m.body.length / o.chunks);
      for (let i = 0; i < o.chunks; i++) {
        if (req.destroyed) return;
        req.write(m.body.subarray(i * size, (i + 1) * size));
        if (i + 1 === o.after) markSent();
        if (i + 1 < o.chunks) await sleep(o.gapMs);
      }
      req.end();
    })();
  });
  return { sent, done };
}

/**
 * A GET of `path` read slowly: `pauseMs` of rest after every `every` bytes. `reading` resolves once the first
 * bytes are in; `done` with the answer and the bytes read.
 */
function slowDownload(s: Server, path: string, o: { every: number; pauseMs: number }) {
  let markReading: () => void = () => {};
  const reading = new Promise<void>((ok) => {
    markReading = ok;
  });
  const done = new Promise<Outcome>((resolve) => {
    const req = request(`${s.url}${path}`, { agent: keepAlive() });
    req.on('error', (e) => resolve({ status: null, headers: {}, bytes: 0, error: e.message }));
    req.on('response', (res) => {
      let bytes = 0;
      let sincePause = 0;
      res.on('data', (c: Buffer) => {
        markReading();
        bytes += c.length;
        sincePause += c.length;
        if (sincePause >= o.every) {
          sincePause = 0;
          res.pause();
          setTimeout(() => res.resume(), o.pauseMs);
        }
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes, error: null }));
      res.on('error', (e) => resolve({ status: res.statusCode!, headers: res.headers, bytes, error: e.message }));
    });
    req.end();
  });
  return { reading, done };
}

/** Whether a new connection to the port is refused. */
const refused = (port: number) =>
  new Promise<boolean>((ok) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      ok(false);
    });
    socket.once('error', (e: NodeJS.ErrnoException) => ok(e.code === 'ECONNREFUSED'));
  });

/**
 * A request whose head is sent up to its last line now, as a load balancer's probe under way would be; `finish()`
 * sends the rest and resolves with the raw answer.
 */
async function begunRequest(port: number, path: string) {
  const socket = connect(port, '127.0.0.1');
  await new Promise((ok) => socket.once('connect', ok));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
  let raw = '';
  socket.on('data', (c: Buffer) => {
    raw += c.toString('latin1');
  });
  return {
    finish: async () => {
      socket.write('\r\n');
      await until(() => raw.includes('\r\n\r\n') && raw.includes('}'), 10_000, `the answer to ${path}`);
      socket.destroy();
      return raw;
    },
  };
}

/** The log lines (JSON) whose message is `msg`. */
const logLines = (s: Server, msg: string) =>
  s
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === msg);

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
