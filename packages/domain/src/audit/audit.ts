/** One line of the audit trail: who did what to which resource, when. Never holds personal data. */
export interface AuditEntry {
  id: string;
  tenantId: string;
  /** The acting API key id, or `system` / `cli` for operator and background actions. */
  actor: string;
  action: string;
  resourceType: string;
  resourceId: string;
  at: string;
  /** Non-personal detail, such as the names of changed fields. */
  details: Record<string, unknown>;
}

/** Port: append-only audit trail. */
export interface AuditLog {
  record(entry: AuditEntry): Promise<void>;
  /** Newest first. */
  list(tenantId: string, filter: { resourceId?: string; limit: number }): Promise<AuditEntry[]>;
}
