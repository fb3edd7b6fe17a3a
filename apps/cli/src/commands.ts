import { commandsOf, migrateAll, reposOf, STORAGE_ONLY } from '@fundi/server';
import { required, usage, UsageError } from './args.js';
import { asJson, type Command } from './command.js';
import { JOB_COMMANDS } from './job-commands.js';
import { KEY_COMMANDS } from './key-commands.js';
import { TENANT_COMMANDS } from './tenant-commands.js';
import { USER_COMMANDS } from './user-commands.js';

export type { Output } from './command.js';

/**
 * The commands the capabilities contribute (their modules' `commands`), made into the CLI's: flags, `--json`, a
 * tenant by its slug and refusals as the CLI's own commands have them.
 */
const CONTRIBUTED = commandsOf(STORAGE_ONLY());
const CAPABILITY_COMMANDS: Record<string, Command> = Object.fromEntries(
  Object.entries(CONTRIBUTED).map(([words, command]): [string, Command] => [
    words,
    (p, { container, out }) =>
      command.run(container(), {
        flags: p.flags,
        required: (flag) => required(p.flags, flag),
        tenant: async (slug) => {
          const tenant = await reposOf(container()).tenants.findBySlug(slug);
          if (!tenant) throw new UsageError(`No tenant ${slug}`);
          return tenant;
        },
        json: asJson(p),
        out,
      }),
  ]),
);

/** The CLI's usage, with each contributed command's lines. */
export const USAGE = usage(Object.values(CONTRIBUTED).map((c) => c.usage));

/** Every operator command by its words (README.md, "The operator's CLI"). */
export const COMMANDS: Record<string, Command> = {
  async migrate(_p, { config, out }) {
    const applied = await migrateAll(config.database);
    out.line(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date');
  },

  ...TENANT_COMMANDS,
  ...USER_COMMANDS,

  ...CAPABILITY_COMMANDS,

  ...KEY_COMMANDS,
  ...JOB_COMMANDS,
};
