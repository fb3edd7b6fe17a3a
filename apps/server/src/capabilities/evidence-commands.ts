import type { EvidenceUseCases } from '@fundi/application/evidence';
import type { OperatorCommand } from './capability.js';

/** The evidence's operator commands: how long a tenant's evidence is kept (docs/api.md, "Evidence"). */
export const evidenceCommands: Record<string, OperatorCommand<{ evidence: EvidenceUseCases }>> = {
  'evidence retention': {
    usage: `  evidence retention --tenant <slug> [--years N] [--json]
                                            show or set how many years evidence is kept after an enrolment's completion`,
    async run(useCases, io) {
      const evidence = useCases().evidence;
      const slug = io.required('tenant');
      const tenant = await io.tenant(slug);
      const given = io.flags.years;
      if (given !== undefined)
        await evidence.setRetentionYears.execute(slug, /^\d+$/.test(String(given)) ? Number(given) : given);
      const years = await evidence.retentionYears.execute(tenant.id);
      if (io.json) return io.out.json({ tenant: slug, retentionYears: years });
      io.out.line(`Tenant ${slug}: evidence is kept ${years} years after the enrolment's completion, then purged.`);
    },
  },
};
