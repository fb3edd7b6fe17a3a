import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll } from 'vitest';
import { closeContainer, useCasesOf, type DatabaseTarget } from '@fundi/adapters';
import { until } from '@fundi/adapters/testing';
import { tenants } from '../capabilities/index.js';
import { containerFor } from '../compose.js';

export { SERVER_MAIN } from './built-server.js';

/** A running app (the server or the worker) started by a test, with everything it wrote. */
export interface AppProcess {
  child: ChildProcess;
  /** Every line of its stdout and stderr: pino's JSON lines and plain text. */
  lines: string[];
  /** Its log lines (pino's JSON) whose `msg` is `msg`. */
  logs(msg: string): Record<string, unknown>[];
  /** Whether it is still running. */
  alive(): boolean;
}

/**
 * App processes for one suite: the returned function starts `script` with `env` over the current environment. Those
 * still running when the suite ends are killed with SIGKILL.
 */
export function appProcesses(): (script: string, env: Record<string, string>) => AppProcess {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });
  return (script, env) => {
    const child = spawn(process.execPath, [script], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    children.push(child);
    const lines: string[] = [];
    for (const stream of [child.stdout!, child.stderr!]) {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        const parts = (rest + chunk).split('\n');
        rest = parts.pop()!;
        lines.push(...parts);
      });
    }
    return {
      child,
      lines,
      logs: (msg) =>
        lines
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .filter((l) => l.msg === msg),
      alive: () => child.exitCode === null && child.signalCode === null,
    };
  };
}

/** The address a started server app serves at, once it says so. */
export async function servingAt(p: AppProcess, ms = 30_000): Promise<string> {
  let url = '';
  await until(
    () => {
      if (!p.alive()) throw new Error(`the server exited (${p.child.exitCode}):\n${p.lines.join('\n')}`);
      const m = p.lines.map((l) => /Fundi is serving at (http:\/\/\S+)/.exec(l)).find(Boolean);
      url = m?.[1] ?? '';
      return url !== '';
    },
    ms,
    'the server to listen',
  );
  return url;
}

/** A new tenant of the migrated store at `target` and its admin key (plan `enterprise`: no test meets its limits). */
export async function tenantWithKey(
  target: DatabaseTarget,
  masterKey: Buffer,
  slug: string,
): Promise<{ id: string; key: string }> {
  const c = containerFor({ database: target, masterKey, logLevel: 'silent' });
  try {
    const t = await useCasesOf(c, tenants).createTenant.execute({ slug, name: `Tenant ${slug}`, plan: 'enterprise' });
    return { id: t.tenant.id, key: t.apiKey.key };
  } finally {
    await closeContainer(c);
  }
}
