import type { Page, PageRequest } from '@fundi/domain';
import type { EvidenceFilter } from '@fundi/domain/evidence';
import type { Actor } from '../common/actor.js';
import type { EvidencePorts } from './evidence-ports.js';
import { evidenceView, type EvidenceView } from './evidence-view.js';
import { checkRanges } from '../common/ranges.js';

/** Evidence of the caller's tenant by filter, a page at a time (docs/api.md, "Evidence"). */
export class ListEvidence {
  constructor(private readonly d: EvidencePorts) {}

  async execute(actor: Actor, filter: EvidenceFilter, page: PageRequest): Promise<Page<EvidenceView>> {
    checkRanges(filter, [['from', 'to']]);
    const r = await this.d.repos.evidence.list(actor.tenantId, filter, page);
    return { ...r, items: r.items.map(evidenceView) };
  }
}
