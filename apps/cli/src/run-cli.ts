import { closeContainer } from '@fundi/adapters';
import { isDomainError } from '@fundi/domain';
import { ConfigError, containerFor, loadConfig, migrateAll } from '@fundi/server';
import type { Container } from 'inversify';
import { parse, UsageError } from './args.js';
import { COMMANDS, USAGE } from './commands.js';

/** Where one run of the CLI reads its settings and input and writes its answer and its complaints. */
export interface CliIo {
  /** The environment `loadConfig` reads: nothing else of the CLI looks at `process.env`. */
  env: NodeJS.ProcessEnv;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Read only by `--password-stdin` (none: an empty input). */
  stdin?: AsyncIterable<Uint8Array | string>;
}

const NO_INPUT: AsyncIterable<Uint8Array | string> = { async *[Symbol.asyncIterator]() {} };

/**
 * The operator's CLI, once: parses `argv`, runs the command and answers with its exit code (0 done, 1 refused or
 * failed, 2 no such command). stdout carries only the answer (JSON with --json); everything else goes to stderr.
 * It never exits the process, and closes every container it built.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    return await run(argv, io);
  } catch (e) {
    io.stderr.write(complaint(e));
    return 1;
  }
}

async function run(argv: string[], io: CliIo): Promise<number> {
  const p = parse(argv);
  const name = p.command.slice(0, 2).join(' ');
  const command = COMMANDS[name] ?? COMMANDS[p.command[0] ?? ''];
  if (p.flags.help || !command) {
    io.stderr.write(`${USAGE}\n`);
    return p.flags.help ? 0 : 2;
  }
  // Logs of the core go to silence: the CLI reports for itself.
  const config = loadConfig({ ...io.env, LOG_LEVEL: 'silent' });
  let container: Container | null = null;
  const get = () => (container ??= containerFor(config));
  try {
    if (name !== 'migrate') await migrateAll(config.database);
    await command(p, {
      config,
      container: get,
      stdin: io.stdin ?? NO_INPUT,
      out: {
        json: (v) => io.stdout.write(`${JSON.stringify(v, null, 2)}\n`),
        line: (t) => io.stdout.write(`${t}\n`),
      },
    });
    return 0;
  } finally {
    if (container) await closeContainer(container);
  }
}

/** What stderr says about a run that failed: usage, a bad variable by name, a refusal with its fields, or a bug. */
function complaint(e: unknown): string {
  if (e instanceof UsageError) return `${e.message}\n\n${USAGE}\n`;
  if (e instanceof ConfigError) return `${e.message}\n`;
  if (isDomainError(e))
    return `Error: ${e.message}${e.details.length ? `\n${e.details.map((d) => `  ${d.field}: ${d.message}`).join('\n')}` : ''}\n`;
  return `Error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`;
}
