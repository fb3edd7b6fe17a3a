/** A domain event as it is stored in the outbox and delivered to subscribers (D6 envelope minus transport). */
export interface DomainEvent {
  id: string;
  tenantId: string;
  type: string;
  /** ISO 8601 UTC time of the change. */
  occurredAt: string;
  data: Record<string, unknown>;
}

/**
 * Port: the transactional outbox. `add` joins the caller's transaction (through the UnitOfWork), so an event
 * exists if and only if its change was committed.
 */
export interface Outbox {
  add(event: DomainEvent): Promise<void>;
  /** Events of a tenant in commit order (oldest first), for inspection and replay. */
  list(tenantId: string, filter: { since?: string; types?: readonly string[]; limit: number }): Promise<DomainEvent[]>;
}
