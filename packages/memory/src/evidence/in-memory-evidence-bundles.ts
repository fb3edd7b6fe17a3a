import type { EvidenceBundleRepository, EvidenceBundleSnapshot } from '@fundi/domain/evidence';
import type { MemoryStore } from '../common/memory-store.js';
import type { EvidenceTables } from './evidence-tables.js';

const clone = <T>(x: T): T => structuredClone(x);

/** Bundles: several records downloaded together. */
export class InMemoryEvidenceBundleRepository implements EvidenceBundleRepository {
  constructor(private readonly store: MemoryStore<EvidenceTables>) {}

  async insert(b: EvidenceBundleSnapshot) {
    this.store.tables.evidenceBundles.set(b.id, clone(b));
  }

  async findById(tenantId: string, id: string) {
    const b = this.store.tables.evidenceBundles.get(id);
    return b && b.tenantId === tenantId ? clone(b) : null;
  }
}
