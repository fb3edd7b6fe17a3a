import type { DomainEvent } from '../events/outbox.js';

/** Where a change came from (docs/api.md, "Audit trail"). */
export const AUDIT_VIA = ['api', 'dashboard', 'portal', 'import', 'hr-sync', 'worker', 'cli'] as const;
export type AuditVia = (typeof AUDIT_VIA)[number];

/** A field's value before and after a change. */
export interface FieldChange {
  from: unknown;
  to: unknown;
}

/** One line of the audit trail: who did what to which resource, when, from where. */
export interface AuditEntry {
  id: string;
  tenantId: string;
  /** The acting API key or staff user id, or `system` / `cli` / `hr-sync` / `signed-url`. */
  actor: string;
  action: string;
  resourceType: string;
  resourceId: string;
  at: string;
  /** Non-personal detail of the action (counts, codes, the names of changed fields). */
  details: Record<string, unknown>;
  /** The learner the entry concerns (their own record, or their enrolment, assessment, evidence, ...). */
  learnerId?: string | null;
  /** Non-personal fields changed, with their values. */
  changes?: Record<string, FieldChange>;
  /**
   * Personal fields changed, with their values: kept apart from the entry so that erasing the learner removes
   * them while the entry and its chain stay whole (`AuditLog.forgetLearner`).
   */
  personal?: Record<string, FieldChange>;
  via?: AuditVia;
  ip?: string | null;
}

/** Port: the append-only audit trail, each tenant's entries chained by hash (`audit-chain.ts`). */
export interface AuditLog {
  /**
   * Appends the entry to its tenant's chain. `events`, the events of the same change, are written to the outbox
   * with it, in the caller's transaction, as `Outbox.add` writes each (the same rows, in order): where the database
   * allows, the events and the append are one statement (docs/performance.md, "Writes and lists on Postgres").
   */
  record(entry: AuditEntry, events?: readonly DomainEvent[]): Promise<void>;
  /** Newest first. */
  list(tenantId: string, filter: { resourceId?: string; limit: number }): Promise<AuditEntry[]>;
  /**
   * Removes the personal values kept for the learner's entries (erasure); the entries stay. Answers how many
   * entries had some.
   */
  forgetLearner(tenantId: string, learnerId: string): Promise<number>;
}
