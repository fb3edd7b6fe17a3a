import type { DomainEvent } from '../events/outbox.js';

/**
 * Where a change came from (docs/api.md, "Audit trail"): the service's own origins here, each capability whose own
 * actor changes records adding its origin (`declare module '../audit/audit.js' { interface AuditOrigins { x: true } }`)
 * and declaring it with that actor (docs/architecture.md, "A capability's anatomy").
 */
export interface AuditOrigins {
  api: true;
  dashboard: true;
  portal: true;
  import: true;
  worker: true;
  cli: true;
}
export type AuditVia = keyof AuditOrigins;

/**
 * An origin with its place in every list of origins (the served enum of `origin.via`), across capabilities: the
 * order they were added in. A new one takes a free number.
 */
export interface AuditOrigin {
  via: AuditVia;
  order: number;
}

/** The service's own origins, in their places. */
export const KERNEL_ORIGINS: readonly AuditOrigin[] = [
  { via: 'api', order: 10 },
  { via: 'dashboard', order: 20 },
  { via: 'portal', order: 30 },
  { via: 'import', order: 40 },
  { via: 'worker', order: 60 },
  { via: 'cli', order: 70 },
];

/** Every origin in its place: the service's own and those `declared` by capabilities. */
export function auditOrigins(declared: readonly AuditOrigin[]): readonly [AuditVia, ...AuditVia[]] {
  const all = [...KERNEL_ORIGINS, ...declared].sort((a, b) => a.order - b.order);
  const seen = new Set<AuditVia>();
  for (const o of all) {
    if (seen.has(o.via)) throw new Error(`The audit origin ${o.via} is declared twice`);
    seen.add(o.via);
  }
  const [first, ...rest] = all.map((o) => o.via);
  if (first === undefined) throw new Error('No audit origin');
  return [first, ...rest];
}

/** A field's value before and after a change. */
export interface FieldChange {
  from: unknown;
  to: unknown;
}

/** One line of the audit trail: who did what to which resource, when, from where. */
export interface AuditEntry {
  id: string;
  tenantId: string;
  /** The acting API key or staff user id, or the id of one of the service's own actors (`system`, `cli`, ...). */
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
