import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { HEAP_NODE_FLAGS } from '@fundi/server';
import { BENCH_DIR } from '../harness.js';

const SERVER_MAIN = join(BENCH_DIR, '../../apps/server/dist/main.js');
const WORKER_MAIN = join(BENCH_DIR, '../../apps/worker/dist/main.js');

export interface App {
  child: ChildProcess;
  pid: number;
  /** The API's base URL (empty for a worker). */
  url: string;
  /** SIGSTOP / SIGCONT: a paused worker claims nothing, so the API's writes are measured alone. */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

/** `DATABASE_URL` for a Postgres database, with a search path when the schema is not `public`. */
export function databaseUrl(base: string, schema?: string, extra: Record<string, string> = {}): string {
  const u = new URL(base);
  if (schema) u.searchParams.set('options', `-c search_path=${schema}`);
  for (const [k, v] of Object.entries(extra)) u.searchParams.set(k, v);
  return u.toString();
}

/**
 * Starts the built server (`npm start`, its embedded worker off) or worker (`npm run worker`) as shipped, with their
 * node flags, logging at `info` as in production; its output is read until it says it runs and then discarded.
 * `nodeArgs` go after those flags, before the script (`--import` of a preload).
 */
export async function startApp(
  kind: 'api' | 'worker',
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<App> {
  const child = spawn(process.execPath, [...HEAP_NODE_FLAGS, ...nodeArgs, kind === 'api' ? SERVER_MAIN : WORKER_MAIN], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      LOG_LEVEL: 'info',
      ...(kind === 'api' ? { FUNDI_EMBEDDED_WORKER: 'false', PORT: '0', HOST: '127.0.0.1' } : {}),
      ...env,
    },
  });
  const url = await new Promise<string>((ok, fail) => {
    const rl = createInterface({ input: child.stdout! });
    rl.on('line', (l) => {
      const served = /Fundi is serving at (http:\/\/\S+)/.exec(l);
      if (served) ok(served[1]!);
      else if (l.includes('Fundi worker running')) ok('');
    });
    child.once('exit', (code) => fail(new Error(`${kind} exited with ${code} before it ran`)));
  });
  return {
    child,
    pid: child.pid!,
    url,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    stop: () =>
      new Promise<void>((ok) => {
        if (child.exitCode !== null || child.signalCode !== null) return ok();
        child.once('exit', () => ok());
        child.kill('SIGCONT');
        child.kill('SIGTERM');
      }),
  };
}
