import { DomainError } from '@fundi/domain';
import { parseRegulatorSettings, type RegulatorSettings } from '@fundi/domain/exports';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { ExportPorts } from './export-ports.js';

/** Replaces the tenant's regulator settings (absent fields are unset); admin only, audited. */
export class PutRegulatorSettings {
  constructor(private readonly d: ExportPorts) {}

  async execute(actor: Actor, input: Record<string, unknown>): Promise<RegulatorSettings> {
    if (actor.role !== 'admin') throw DomainError.forbidden('Only an admin key may change the regulator settings');
    const s = parseRegulatorSettings(input);
    const now = this.d.clock.now();
    await this.d.uow.run(async (tx) => {
      await tx.regulatorSettings.put(actor.tenantId, s, now.toISOString());
      await recordChange(tx, actor, now, {
        action: 'regulator_settings.updated',
        resourceType: 'tenant',
        resourceId: actor.tenantId,
        details: { fields: Object.keys(s).filter((k) => s[k as keyof RegulatorSettings] !== null) },
      });
    });
    return s;
  }
}
