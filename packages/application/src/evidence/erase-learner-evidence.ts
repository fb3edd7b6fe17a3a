import type { EvidencePorts } from './evidence-ports.js';
import { scheduleScrub } from '../learners/learner-erasure.js';
import { removeForGood } from './evidence-retention.js';

/**
 * An erased learner's evidence goes at once: bytes, records and upload tickets; the audit keeps that it happened.
 * The records held file names and descriptions: the store's files are scrubbed of them afterwards.
 */
export class EraseLearnerEvidence {
  constructor(private readonly d: EvidencePorts) {}

  async execute(tenantId: string, learnerId: string): Promise<number> {
    const now = this.d.clock.now();
    const found = await this.d.repos.evidence.ofLearner(tenantId, learnerId);
    for (const c of found) {
      await removeForGood(this.d, { ...c, tenantId }, now, 'evidence.erased');
    }
    await this.d.uow.run(async (tx) => {
      // A signed upload URL's ticket keeps the file name it was issued for.
      const tickets = await tx.uploadTickets.removeOfLearner(tenantId, learnerId);
      if (found.length || tickets) await scheduleScrub(tx.jobs, this.d.clock.now());
    });
    return found.length;
  }
}
