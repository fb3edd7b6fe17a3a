import type {
  EvidenceBundleRepository,
  EvidenceBundleSnapshot,
  EvidenceSettingsRepository,
  StorageDay,
  StorageHistoryRepository,
  UploadTicketRepository,
  UploadTicketSnapshot,
} from '@fundi/domain';
import type { EvidenceTables } from './in-memory-evidence.js';
import type { MemoryStore } from './memory-store.js';

const clone = <T>(x: T): T => structuredClone(x);

/** The evidence capability's small tables: upload tickets, bundles, retention settings, storage history. */
export class InMemoryUploadTicketRepository implements UploadTicketRepository {
  constructor(private readonly store: MemoryStore<EvidenceTables>) {}

  async insert(t: UploadTicketSnapshot) {
    this.store.tables.uploadTickets.set(t.id, clone(t));
  }

  async findById(tenantId: string, id: string) {
    const t = this.store.tables.uploadTickets.get(id);
    return t && t.tenantId === tenantId ? clone(t) : null;
  }

  async consume(tenantId: string, id: string, at: string) {
    const t = this.store.tables.uploadTickets.get(id);
    if (!t || t.tenantId !== tenantId || t.usedAt) return false;
    this.store.tables.uploadTickets.set(id, { ...t, usedAt: at });
    return true;
  }

  async removeOfLearner(tenantId: string, learnerId: string) {
    let n = 0;
    for (const [id, t] of this.store.tables.uploadTickets)
      if (t.tenantId === tenantId && t.learnerId === learnerId && this.store.tables.uploadTickets.delete(id)) n++;
    return n;
  }
}

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

export class InMemoryEvidenceSettingsRepository implements EvidenceSettingsRepository {
  constructor(private readonly store: MemoryStore<EvidenceTables>) {}
  async retentionYears(tenantId: string) {
    return this.store.tables.evidenceSettings.get(tenantId) ?? null;
  }
  async setRetentionYears(tenantId: string, years: number) {
    this.store.tables.evidenceSettings.set(tenantId, years);
  }
}

export class InMemoryStorageHistoryRepository implements StorageHistoryRepository {
  constructor(private readonly store: MemoryStore<EvidenceTables>) {}
  async record(tenantId: string, x: StorageDay): Promise<void> {
    this.store.tables.storageHistory.set(`${tenantId}\u0000${x.day}`, { tenantId, ...x });
  }
  async list(tenantId: string, fromDay: string): Promise<StorageDay[]> {
    return [...this.store.tables.storageHistory.values()]
      .filter((x) => x.tenantId === tenantId && x.day >= fromDay)
      .sort((a, b) => (a.day < b.day ? -1 : 1))
      .map(({ day, bytes, files }) => ({ day, bytes, files }));
  }
}
