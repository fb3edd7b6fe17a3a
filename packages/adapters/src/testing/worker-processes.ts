import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import type { DatabaseTarget } from '../db/open-database.js';
import { scratchDir } from './scratch-dir.js';
import { POSTGRES_TEST_URL } from './test-databases.js';

/** The root of the repository, where `npm run build` builds every package and app. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../..');

/** The built worker app, as `npm run worker` runs it. */
export const WORKER_MAIN = join(REPO_ROOT, 'apps/worker/dist/main.js');

/** The DATABASE_URL of a test store for another process: its SQLite file, or the test Postgres on its schema. */
export function databaseUrlOf(target: DatabaseTarget): string {
  if (target.kind === 'sqlite') return `sqlite:${target.filename}`;
  const options = encodeURIComponent(`-c search_path=${target.searchPath}`);
  return `${POSTGRES_TEST_URL}${POSTGRES_TEST_URL.includes('?') ? '&' : '?'}options=${options}`;
}

/** The one build of this test process (the first file that asks starts it; the others wait for the same one). */
let built: Promise<void> | undefined;

function buildOnce(): Promise<void> {
  built ??= new Promise<void>((ok, fail) => {
    // No input and no output but its complaints: a failed build is reported with what it wrote to stderr.
    const child = spawn('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? ok() : fail(new Error(`npm run build exited ${code}:\n${stderr}`))));
  }).catch((e: unknown) => {
    // A failed build is not kept: the next file that asks tries again, and this one reports why.
    built = undefined;
    throw e;
  });
  return built;
}

/**
 * Builds the repository before the file's tests, so the processes they spawn run the code as shipped. Test files
 * share their worker process (vitest.config.ts, isolate: false), so the build runs once per worker, not once per
 * file; the sources do not change while the tests run. Turbo makes the build itself a cache hit when nothing changed.
 */
export function buildBeforeAll(): void {
  beforeAll(() => buildOnce(), 180_000);
}

/** Lets a worker process deliver to a test receiver on 127.0.0.1 (plain HTTP, that host allowed, 1 s timeout). */
export const LOOPBACK_RECEIVER_ENV: Readonly<Record<string, string>> = {
  FUNDI_WEBHOOK_ALLOW_HTTP: 'true',
  FUNDI_WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
  FUNDI_WEBHOOK_TIMEOUT_MS: '1000',
};

export interface WorkerProcessOptions {
  /** FUNDI_MASTER_KEY of every process. */
  masterKey: Buffer;
  /** The script node runs (default: the built worker app). */
  script?: string;
  /** FUNDI_DATA_DIR of every process (default: a new scratch directory for each). */
  dataDir?: string;
  /** More environment, over the defaults: a 1 s lease, 50 ms polls, a 500 ms webhook timeout, no logs. */
  env?: Record<string, string>;
}

/**
 * Worker processes for one suite: the returned function starts one on a test store (with more environment of its
 * own, if given). Those still running when the suite ends are killed with SIGKILL.
 */
export function workerProcesses(
  opts: WorkerProcessOptions,
): (target: DatabaseTarget, env?: Record<string, string>) => ChildProcess {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  });
  return (target, env = {}) => {
    const child = spawn(process.execPath, [opts.script ?? WORKER_MAIN], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        DATABASE_URL: databaseUrlOf(target),
        FUNDI_DATA_DIR: opts.dataDir ?? scratchDir('fundi-worker-'),
        FUNDI_MASTER_KEY: opts.masterKey.toString('base64'),
        FUNDI_WORKER_LEASE_MS: '1000',
        FUNDI_WORKER_POLL_MS: '50',
        FUNDI_WEBHOOK_TIMEOUT_MS: '500',
        LOG_LEVEL: 'silent',
        ...opts.env,
        ...env,
      },
    });
    children.push(child);
    return child;
  };
}

/** The exit code of a process once it has exited: null when a signal ended it. */
export function exited(p: ChildProcess): Promise<number | null> {
  return new Promise((ok) => (p.exitCode !== null ? ok(p.exitCode) : p.once('exit', (code) => ok(code))));
}

/** Waits until `check` holds, asking every `everyMs`; fails naming `what` after `ms`. */
export async function until(
  check: () => Promise<boolean> | boolean,
  ms: number,
  what: string,
  everyMs = 25,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((ok) => setTimeout(ok, everyMs));
  }
}
