import { DomainError } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { EvidencePorts } from './evidence-ports.js';
import { evidenceView, type EvidenceView } from './evidence-view.js';

/** One piece of evidence of the caller's tenant; unknown or deleted evidence is `not_found` (docs/api.md, "Evidence"). */
export class GetEvidence {
  constructor(private readonly d: EvidencePorts) {}

  async execute(actor: Actor, id: string): Promise<EvidenceView> {
    const e = await this.d.repos.evidence.findById(actor.tenantId, id);
    if (!e) throw DomainError.notFound('evidence', id);
    return evidenceView(e);
  }
}
