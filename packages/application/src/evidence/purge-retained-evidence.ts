import type { EvidencePorts } from './evidence-ports.js';
import { removeForGood, retentionYearsOf } from './evidence-retention.js';

/**
 * Purges evidence whose enrolment was completed longer ago than the tenant's retention: bytes, then records; an
 * audit entry stays for each.
 */
export class PurgeRetainedEvidence {
  constructor(private readonly d: EvidencePorts) {}

  async execute(batch = 100): Promise<number> {
    const now = this.d.clock.now();
    let purged = 0;
    for (const tenant of await this.d.repos.tenants.list()) {
      const years = await retentionYearsOf(this.d, tenant.id);
      const cutoff = new Date(now);
      cutoff.setUTCFullYear(cutoff.getUTCFullYear() - years);
      const day = cutoff.toISOString().slice(0, 10);
      for (;;) {
        const found = await this.d.repos.evidence.pastRetention(tenant.id, day, batch);
        for (const c of found) {
          await removeForGood(this.d, c, now, 'evidence.retention_purged', { retentionYears: years });
          purged++;
        }
        if (found.length < batch) break;
      }
    }
    return purged;
  }
}
