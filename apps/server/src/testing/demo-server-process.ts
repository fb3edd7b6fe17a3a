import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { until } from '@fundi/adapters/testing';
import { SERVER_MAIN } from './built-server.js';
import { programmeBody } from './training-fixtures.js';

/**
 * The built server as `npm start` runs it, with its demo tenant, on a fresh SQLite data dir: for the tests that
 * signal the process and read what it logged (a rolling deploy's SIGTERM). Needs `buildBeforeAll()` in the test file.
 */
export interface Server {
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

/** Kills the servers still running and removes their data dirs (a test file's `afterAll`). */
export function stopServers(): void {
  for (const s of started.splice(0)) {
    if (s.child.exitCode === null) s.child.kill('SIGKILL');
    rmSync(s.dataDir, { recursive: true, force: true });
  }
}

/** The built server, as `npm start` runs it, on a fresh SQLite data dir and a free port; resolves once it serves. */
export async function startServer(env: Record<string, string>): Promise<Server> {
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
export async function call(
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
export async function enrolled(s: Server): Promise<string> {
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

/** The log lines (JSON) whose message is `msg`. */
export const logLines = (s: Server, msg: string) =>
  s
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === msg);
