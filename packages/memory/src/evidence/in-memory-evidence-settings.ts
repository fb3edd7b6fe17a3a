import type { EvidenceSettingsRepository } from '@fundi/domain/evidence';
import type { MemoryStore } from '../common/memory-store.js';
import type { EvidenceTables } from './evidence-tables.js';

/** Each tenant's evidence retention in years (none set: null). */
export class InMemoryEvidenceSettingsRepository implements EvidenceSettingsRepository {
  constructor(private readonly store: MemoryStore<EvidenceTables>) {}
  async retentionYears(tenantId: string) {
    return this.store.tables.evidenceSettings.get(tenantId) ?? null;
  }
  async setRetentionYears(tenantId: string, years: number) {
    this.store.tables.evidenceSettings.set(tenantId, years);
  }
}
