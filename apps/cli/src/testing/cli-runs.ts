import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '@fundi/adapters/testing';
import { runCli } from '../run-cli.js';

/** One run of the CLI as a test sees it: its exit code and everything it wrote to each stream. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The CLI in the test's own process: the same `runCli` the binary runs, over the environment a spawned CLI would
 * inherit (the test's, with `env` over it), its streams captured. No module graph to load again, so a run costs what
 * its command does.
 */
export async function cliInProcess(env: Record<string, string>, args: string[], stdin = ''): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    env: { ...process.env, ...env },
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    stdin: (async function* () {
      if (stdin) yield stdin;
    })(),
  });
  return { code, stdout, stderr };
}

/** A process of its own (`cmd args` from the repository's root), its streams captured and `stdin` written to it. */
export function spawned(cmd: string, args: string[], env: Record<string, string>, stdin = ''): Promise<Run> {
  return new Promise((ok, fail) => {
    const child = spawn(cmd, args, { cwd: REPO_ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', fail);
    child.on('close', (code) => ok({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** The built CLI as its own process, without npm's build check. */
export const cliProcess = (env: Record<string, string>, args: string[], stdin = ''): Promise<Run> =>
  spawned(process.execPath, [join(REPO_ROOT, 'apps/cli/dist/main.js'), ...args], env, stdin);

/** Exactly as the acceptance checks drive it: `npm run fundi -- args` (builds if needed, ~2-3 s). */
export const npmRunFundi = (env: Record<string, string>, args: string[], stdin = ''): Promise<Run> =>
  spawned('npm', ['run', 'fundi', '--', ...args], env, stdin);
