import { operator } from '@fundi/application';
import type { ExportUseCases } from '@fundi/application/exports';
import { REGULATOR_SETTING_FIELDS } from '@fundi/domain/exports';
import type { OperatorCommand } from './capability.js';

/** `--sdp-code` for `sdpCode`: a setting's flag. */
const kebab = (f: string) => f.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The exports' operator commands: the tenant's regulator settings its regulator files carry (docs/api.md). */
export const exportCommands: Record<string, OperatorCommand<{ exports: ExportUseCases }>> = {
  'regulator settings': {
    usage: `  regulator settings --tenant <slug> [--sdp-code X] [--assessment-partner-code X] [--assessment-centre-code X]
      [--readiness-type-id N] [--employment-status-default NN] [--achievement-type-id NN]
      [--entry-requirement-status NN] [--flc-status NN] [--statement-of-results-status NN] [--json]
                                            show or change the QCTO settings (given flags change; 'none' unsets)`,
    async run(useCases, io) {
      const service = useCases().exports;
      const slug = io.required('tenant');
      const actor = operator((await io.tenant(slug)).id);
      const current: Record<string, unknown> = { ...(await service.getSettings.execute(actor)) };
      const given = REGULATOR_SETTING_FIELDS.filter((f) => io.flags[kebab(f)] !== undefined);
      for (const f of given) current[f] = io.flags[kebab(f)] === 'none' ? null : io.flags[kebab(f)];
      const settings = given.length ? await service.putSettings.execute(actor, current) : current;
      if (io.json) return io.out.json({ tenant: slug, settings });
      for (const f of REGULATOR_SETTING_FIELDS) io.out.line(`${kebab(f).padEnd(28)} ${settings[f] ?? '(unset)'}`);
    },
  },
};
