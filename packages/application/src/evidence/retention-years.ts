import type { EvidencePorts } from './evidence-ports.js';
import { retentionYearsOf } from './evidence-retention.js';

/** The tenant's retention in years after an enrolment's completion (7 unless set). */
export class RetentionYears {
  constructor(private readonly d: EvidencePorts) {}

  async execute(tenantId: string): Promise<number> {
    return retentionYearsOf(this.d, tenantId);
  }
}
