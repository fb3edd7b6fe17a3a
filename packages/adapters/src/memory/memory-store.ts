import type { ApiKeySnapshot, AuditEntry, DomainEvent, LearnerSnapshot, TenantSnapshot } from '@fundi/domain';
import type { AssessmentSnapshot, EnrolmentSnapshot, ModerationSnapshot, ProgrammeSnapshot, StatusChange } from '@fundi/domain';

/** All rows of the in-memory fakes; a transaction snapshots and restores it. */
export interface MemoryTables {
  tenants: Map<string, TenantSnapshot>;
  apiKeys: Map<string, ApiKeySnapshot>;
  learners: Map<string, LearnerSnapshot & { erasedAt?: string }>;
  audit: AuditEntry[];
  outbox: DomainEvent[];
  programmes: Map<string, ProgrammeSnapshot>;
  enrolments: Map<string, EnrolmentSnapshot>;
  enrolmentHistory: StatusChange[];
  assessments: Map<string, Omit<AssessmentSnapshot, 'moderation'>>;
  moderations: Map<string, ModerationSnapshot>;
  authEpoch: number;
}

export function emptyTables(): MemoryTables {
  const tables = { tenants: new Map(), apiKeys: new Map(), learners: new Map(), audit: [], outbox: [], authEpoch: 0 };
  return { ...tables, programmes: new Map(), enrolments: new Map(), enrolmentHistory: [], assessments: new Map(), moderations: new Map() };
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
