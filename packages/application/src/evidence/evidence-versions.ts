import { DomainError } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { EvidencePorts } from './evidence-ports.js';
import { versionView, type EvidenceVersionView } from './evidence-view.js';

/** Every version of one piece of evidence, oldest first; unknown or deleted evidence is `not_found`. */
export class EvidenceVersions {
  constructor(private readonly d: EvidencePorts) {}

  async execute(actor: Actor, id: string): Promise<EvidenceVersionView[]> {
    const e = await this.d.repos.evidence.findById(actor.tenantId, id);
    if (!e) throw DomainError.notFound('evidence', id);
    return (await this.d.repos.evidence.versions(actor.tenantId, id)).map(versionView);
  }
}
