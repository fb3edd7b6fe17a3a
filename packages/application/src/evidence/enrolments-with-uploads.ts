import type { Actor } from '../common/actor.js';
import type { EvidencePorts } from './evidence-ports.js';

/** The enrolments with evidence uploaded at or after `since` (ISO 8601), each once (the overview's learners at risk). */
export class EnrolmentsWithUploads {
  constructor(private readonly d: EvidencePorts) {}

  execute(actor: Actor, since: string): Promise<string[]> {
    return this.d.repos.evidence.enrolmentsWithUploadsSince(actor.tenantId, since);
  }
}
