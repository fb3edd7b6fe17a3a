import { DomainError } from '@fundi/domain';
import type { RegulatorSettings } from '@fundi/domain/exports';
import type { Actor } from '../common/actor.js';
import type { ExportPorts } from './export-ports.js';
import { regulatorSettingsOf } from './export-links.js';

/** The tenant's regulator settings; admin only (docs/api.md, "Regulator settings"). */
export class GetRegulatorSettings {
  constructor(private readonly d: Pick<ExportPorts, 'repos'>) {}

  async execute(actor: Actor): Promise<RegulatorSettings> {
    if (actor.role !== 'admin') throw DomainError.forbidden('Only an admin key may read the regulator settings');
    return regulatorSettingsOf(this.d.repos, actor.tenantId);
  }
}
