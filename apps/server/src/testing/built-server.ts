import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { REPO_ROOT, databaseUrlOf, exited } from '@fundi/adapters/testing';
import type { DatabaseTarget } from '@fundi/adapters';

/** The built server app, as `npm start` runs it: the API with its embedded worker. */
export const SERVER_MAIN = join(REPO_ROOT, 'apps/server/dist/main.js');

export interface BuiltServer {
  url: string;
  pid: number;
  /** The process's resident memory now, in MB (from /proc). */
  rssMb(): number;
  stop(): Promise<void>;
}

/**
 * Starts the built server in a process of its own on an existing test store (tenants and keys made beforehand
 * through a test server on the same store), so what a test measures of it (its event loop, its memory) is the
 * server's alone. Needs `buildBeforeAll()` in the test file.
 */
export async function startBuiltServer(
  target: DatabaseTarget,
  o: { dataDir: string; masterKey: Buffer; env?: Record<string, string> },
): Promise<BuiltServer> {
  const child = spawn(process.execPath, [SERVER_MAIN], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrlOf(target),
      FUNDI_DATA_DIR: o.dataDir,
      FUNDI_MASTER_KEY: o.masterKey.toString('base64'),
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'silent',
      FUNDI_WORKER_POLL_MS: '50',
      ...o.env,
    },
  });
  const url = await new Promise<string>((ok, fail) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (l) => {
      const m = /Fundi is serving at (http:\/\/\S+)/.exec(l);
      if (m) ok(m[1]!);
    });
    child.once('exit', (code) => fail(new Error(`the server exited with ${code} before it was ready`)));
  });
  child.stdout!.resume();
  return {
    url,
    pid: child.pid!,
    rssMb: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}
