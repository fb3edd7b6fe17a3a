import { EVIDENCE_RESTORE_DAYS } from '@fundi/domain/evidence';
import type { EvidencePorts } from './evidence-ports.js';
import { DAY_MS, removeForGood } from './evidence-retention.js';

/** Purges evidence deleted more than 30 days ago: bytes first, then the record; an audit record stays. */
export class PurgeDeletedEvidence {
  constructor(private readonly d: EvidencePorts) {}

  async execute(batch = 100): Promise<number> {
    const now = this.d.clock.now();
    const before = new Date(now.getTime() - EVIDENCE_RESTORE_DAYS * DAY_MS).toISOString();
    let purged = 0;
    for (;;) {
      const found = await this.d.repos.evidence.deletedBefore(before, batch);
      for (const c of found) {
        await removeForGood(this.d, c, now, 'evidence.purged');
        purged++;
      }
      if (found.length < batch) return purged;
    }
  }
}
