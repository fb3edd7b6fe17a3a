import { useCasesOf } from '@fundi/adapters';
import { evidenceCapability, exportsCapability, reposOf, migrateAll } from '@fundi/server';
import { operator } from '@fundi/application';
import { REGULATOR_SETTING_FIELDS } from '@fundi/domain/exports';
import { required, UsageError } from './args.js';
import { asJson, type Command } from './command.js';
import { JOB_COMMANDS } from './job-commands.js';
import { KEY_COMMANDS } from './key-commands.js';
import { TENANT_COMMANDS } from './tenant-commands.js';
import { USER_COMMANDS } from './user-commands.js';

export type { Output } from './command.js';

/** Every operator command by its words (README.md, "The operator's CLI"). */
export const COMMANDS: Record<string, Command> = {
  async migrate(_p, { config, out }) {
    const applied = await migrateAll(config.database);
    out.line(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date');
  },

  ...TENANT_COMMANDS,
  ...USER_COMMANDS,

  async 'evidence retention'(p, { container, out }) {
    const evidence = useCasesOf(container(), evidenceCapability).evidence;
    const slug = required(p.flags, 'tenant');
    const tenant = await reposOf(container()).tenants.findBySlug(slug);
    if (!tenant) throw new UsageError(`No tenant ${slug}`);
    if (p.flags.years !== undefined)
      await evidence.setRetentionYears.execute(
        slug,
        /^\d+$/.test(String(p.flags.years)) ? Number(p.flags.years) : p.flags.years,
      );
    const years = await evidence.retentionYears.execute(tenant.id);
    if (asJson(p)) return out.json({ tenant: slug, retentionYears: years });
    out.line(`Tenant ${slug}: evidence is kept ${years} years after the enrolment's completion, then purged.`);
  },

  async 'regulator settings'(p, { container, out }) {
    const service = useCasesOf(container(), exportsCapability).exports;
    const slug = required(p.flags, 'tenant');
    const tenant = await reposOf(container()).tenants.findBySlug(slug);
    if (!tenant) throw new UsageError(`No tenant ${slug}`);
    const actor = operator(tenant.id);
    const current: Record<string, unknown> = { ...(await service.getSettings.execute(actor)) };
    const kebab = (f: string) => f.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    const given = REGULATOR_SETTING_FIELDS.filter((f) => p.flags[kebab(f)] !== undefined);
    for (const f of given) current[f] = p.flags[kebab(f)] === 'none' ? null : p.flags[kebab(f)];
    const settings = given.length ? await service.putSettings.execute(actor, current) : current;
    if (asJson(p)) return out.json({ tenant: slug, settings });
    for (const f of REGULATOR_SETTING_FIELDS) out.line(`${kebab(f).padEnd(28)} ${settings[f] ?? '(unset)'}`);
  },

  ...KEY_COMMANDS,
  ...JOB_COMMANDS,
};
