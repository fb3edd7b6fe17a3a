import type { Page, PageRequest } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { ExportPorts } from './export-ports.js';
import { exportView, type ExportView } from './export-view.js';

/** The tenant's export records, oldest first, in the form's paging. */
export class ListExports {
  constructor(private readonly d: Pick<ExportPorts, 'repos'>) {}

  async execute(actor: Actor, page: PageRequest): Promise<Page<ExportView>> {
    const p = await this.d.repos.exports.list(actor.tenantId, page);
    return { ...p, items: p.items.map(exportView) };
  }
}
