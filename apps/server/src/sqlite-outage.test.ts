import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseTarget } from '@fundi/adapters';
import { buildBeforeAll, scratchDir, until } from '@fundi/adapters/testing';
import { aLearnerInput } from '@fundi/domain/testing';
import { migrateAll } from './capabilities/index.js';
import { appProcesses, SERVER_MAIN, servingAt, tenantWithKey, type AppProcess } from './testing/app-processes.js';

/** The fields of the answers these tests read. */
interface Answer {
  id: string;
  status: string;
  importedRows: number;
  data: { id: string }[];
  error: { code: string; message: string };
}

const MASTER_KEY = Buffer.alloc(32, 9);

/**
 * `prlimit` (util-linux) sets another process's resource limits. A file-size limit of 0 (RLIMIT_FSIZE) makes every
 * write to a regular file fail with EFBIG (Node ignores the SIGXFSZ that comes with it), which SQLite reports as
 * SQLITE_IOERR_WRITE: a real I/O error, made without a failing disk, a full filesystem or root-only mounts (and
 * unlike file permissions it also stops root). Missing: the I/O error test is skipped with a notice, or fails under
 * CI=true.
 */
function prlimitAvailable(): boolean {
  if (spawnSync('prlimit', ['--version']).status === 0) return true;
  if (process.env.CI === 'true') throw new Error('CI=true but prlimit (util-linux) is missing');
  process.stderr.write('\n[notice] prlimit (util-linux) is missing: the SQLite I/O error test is SKIPPED\n');
  return false;
}
const canLimit = prlimitAvailable();

buildBeforeAll();

/**
 * The embedded default (one process, SQLite) when its database cannot be used for a while: a lock held by another
 * connection past the busy timeout (SQLITE_BUSY), or writes failing on the disk (SQLITE_IOERR). The operation fails
 * with 503, the process lives and answers again when the database can be used.
 */
describe('the embedded server when its SQLite database cannot be used', () => {
  const start = appProcesses();
  let dir: string;
  let file: string;
  let server: AppProcess;
  let url: string;
  let key: string;
  beforeAll(async () => {
    dir = scratchDir('fundi-sqlite-outage-');
    file = join(dir, 'fundi.sqlite');
    const target: DatabaseTarget = { kind: 'sqlite', filename: file };
    await migrateAll(target);
    key = (await tenantWithKey(target, MASTER_KEY, 'embedded')).key;
    server = start(SERVER_MAIN, {
      FUNDI_DATA_DIR: dir,
      FUNDI_MASTER_KEY: MASTER_KEY.toString('base64'),
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    });
    url = await servingAt(server);
  }, 60_000);
  afterAll(() => {
    if (canLimit && server?.alive()) execFileSync('prlimit', ['--pid', String(server.child.pid), '--fsize=unlimited']);
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Answer };
  };
  const learnerIds = async () =>
    ((await call('GET', '/api/v1/learners?limit=100')).body.data as { id: string }[]).map((l) => l.id);

  it('a write lock held elsewhere: writes answer 503 after the busy timeout, reads are answered meanwhile, and writes work after', async () => {
    const before = await learnerIds();
    const other = new Database(file);
    other.pragma('busy_timeout = 5000');
    other.prepare('BEGIN IMMEDIATE').run();
    try {
      const started = Date.now();
      const writing = call('POST', '/api/v1/learners', aLearnerInput());
      // The write waits for the lock without stopping the process: reads are answered meanwhile, at once.
      await new Promise((ok) => setTimeout(ok, 500));
      const read = await call('GET', '/api/v1/learners');
      expect(read.status).toBe(200);
      const readAfter = Date.now() - started;
      const refused = await writing;
      expect(readAfter).toBeLessThan(Date.now() - started);
      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe('service_unavailable');
      expect(refused.headers.get('retry-after')).toBe('5');
    } finally {
      other.prepare('ROLLBACK').run();
      other.close();
    }
    expect(server.alive()).toBe(true);
    // Logs reach stdout in batches: wait for the line.
    await until(() => server.logs('storage unavailable').length > 0, 10_000, 'the log line');
    expect(server.logs('storage unavailable').at(-1)).toMatchObject({
      code: 'storage_unavailable',
      err: { code: 'SQLITE_BUSY' },
    });
    const made = await call('POST', '/api/v1/learners', aLearnerInput());
    expect(made.status).toBe(201);
    expect(await learnerIds()).toEqual([...before, made.body.id]);
  }, 30_000);

  it.runIf(canLimit)(
    'writes failing on the disk (SQLITE_IOERR): 503 and logged, the process lives, and writes work once the disk does',
    async () => {
      const before = await learnerIds();
      const pid = String(server.child.pid);
      execFileSync('prlimit', ['--pid', pid, '--fsize=0:unlimited']);
      try {
        for (let i = 0; i < 3; i++) {
          const refused = await call('POST', '/api/v1/learners', aLearnerInput());
          expect(refused.status).toBe(503);
          expect(refused.body.error.code).toBe('service_unavailable');
        }
        expect((await call('GET', '/api/v1/learners')).status).toBe(200);
        const ioErrors = () =>
          server
            .logs('storage unavailable')
            .filter((l) => /^SQLITE_IOERR/.test(String((l.err as { code?: string }).code)));
        await until(() => ioErrors().length >= 3, 10_000, 'the I/O errors logged');
      } finally {
        execFileSync('prlimit', ['--pid', pid, '--fsize=unlimited']);
      }
      await new Promise((ok) => setTimeout(ok, 500));
      expect(server.alive()).toBe(true);
      let made: Awaited<ReturnType<typeof call>> | null = null;
      await until(
        async () => {
          made = await call('POST', '/api/v1/learners', aLearnerInput());
          return made.status === 201;
        },
        10_000,
        'a write to succeed again',
        200,
      );
      // The refused writes left nothing behind.
      expect(await learnerIds()).toEqual([...before, made!.body.id]);
      expect((await call('GET', '/ready')).status).toBe(200);
    },
    30_000,
  );
});
