import type { ApiKeySnapshot, AuditEntry, DomainEvent, LearnerSnapshot, TenantSnapshot } from '@fundi/domain';

/** All rows of the in-memory fakes; a transaction snapshots and restores it. */
export interface MemoryTables {
  tenants: Map<string, TenantSnapshot>;
  apiKeys: Map<string, ApiKeySnapshot>;
  learners: Map<string, LearnerSnapshot & { erasedAt?: string }>;
  audit: AuditEntry[];
  outbox: DomainEvent[];
  authEpoch: number;
}

export function emptyTables(): MemoryTables {
  return { tenants: new Map(), apiKeys: new Map(), learners: new Map(), audit: [], outbox: [], authEpoch: 0 };
}

export class MemoryStore {
  tables: MemoryTables = emptyTables();

  snapshot(): MemoryTables {
    return structuredClone(this.tables);
  }

  restore(t: MemoryTables): void {
    this.tables = t;
  }
}
