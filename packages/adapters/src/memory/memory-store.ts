import type { ApiKeySnapshot, AuditEntry, DomainEvent, LearnerSnapshot, TenantSnapshot } from '@fundi/domain';
import type { AssessmentSnapshot, EnrolmentSnapshot, ModerationSnapshot, ProgrammeSnapshot, StatusChange } from '@fundi/domain';
import type { AttemptSnapshot, DeliverySnapshot, JobSnapshot, TenantAlert, WebhookSubscriptionSnapshot } from '@fundi/domain';

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
  /** Outbox event id -> when it was fanned out (the SQL column `dispatched_at`). */
  dispatched: Map<string, string>;
  webhookSubscriptions: Map<string, WebhookSubscriptionSnapshot>;
  webhookDeliveries: Map<string, DeliverySnapshot>;
  webhookAttempts: AttemptSnapshot[];
  tenantAlerts: TenantAlert[];
  jobs: Map<string, JobSnapshot>;
  workerLease: { owner: string; leaseUntil: string } | null;
}

export function emptyTables(): MemoryTables {
  return {
    tenants: new Map(), apiKeys: new Map(), learners: new Map(), audit: [], outbox: [], authEpoch: 0,
    programmes: new Map(), enrolments: new Map(), enrolmentHistory: [], assessments: new Map(), moderations: new Map(),
    dispatched: new Map(), webhookSubscriptions: new Map(), webhookDeliveries: new Map(), webhookAttempts: [], tenantAlerts: [], jobs: new Map(), workerLease: null,
  };
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
