import { DomainError } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { ExportPorts } from './export-ports.js';
import { exportView, type ExportView } from './export-view.js';

/** One export record of the actor's tenant; 404 for another tenant's. */
export class GetExport {
  constructor(private readonly d: Pick<ExportPorts, 'repos'>) {}

  async execute(actor: Actor, id: string): Promise<ExportView> {
    const e = await this.d.repos.exports.findById(actor.tenantId, id);
    if (!e) throw DomainError.notFound('export', id);
    return exportView(e);
  }
}
