import type { StorageDay, StorageHistoryRepository } from '@fundi/domain/evidence';
import type { MemoryStore } from '../common/memory-store.js';
import type { EvidenceTables } from './evidence-tables.js';

/** A tenant's stored bytes and files, one row per day. */
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
