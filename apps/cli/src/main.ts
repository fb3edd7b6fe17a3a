import { closeContainer } from '@fundi/adapters';
import { isDomainError } from '@fundi/domain';
import { ConfigError, containerFor, loadConfig, migrateAll } from '@fundi/server';
import type { Container } from 'inversify';
import { parse, UsageError, USAGE } from './args.js';
import { COMMANDS } from './commands.js';

/** The operator's CLI. stdout carries only the answer (JSON with --json); everything else goes to stderr. */
async function main(argv: string[]): Promise<number> {
  const p = parse(argv);
  const name = p.command.slice(0, 2).join(' ');
  const command = COMMANDS[name] ?? COMMANDS[p.command[0] ?? ''];
  if (p.flags.help || !command) {
    process.stderr.write(`${USAGE}\n`);
    return p.flags.help ? 0 : 2;
  }
  // Logs of the core go to stderr-less silence: the CLI reports for itself.
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  let container: Container | null = null;
  const get = () => (container ??= containerFor(config));
  try {
    if (name !== 'migrate') await migrateAll(config.database);
    await command(p, {
      config,
      container: get,
      out: {
        json: (v) => process.stdout.write(`${JSON.stringify(v, null, 2)}\n`),
        line: (t) => process.stdout.write(`${t}\n`),
      },
    });
    return 0;
  } finally {
    if (container) await closeContainer(container);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof UsageError) process.stderr.write(`${e.message}\n\n${USAGE}\n`);
    else if (e instanceof ConfigError) process.stderr.write(`${e.message}\n`);
    else if (isDomainError(e))
      process.stderr.write(
        `Error: ${e.message}${e.details.length ? `\n${e.details.map((d) => `  ${d.field}: ${d.message}`).join('\n')}` : ''}\n`,
      );
    else process.stderr.write(`Error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
