/** A domain event as it is stored in the outbox and delivered to subscribers (the webhook envelope minus transport). */
export interface DomainEvent {
  id: string;
  tenantId: string;
  type: string;
  /** ISO 8601 UTC time of the change. */
  occurredAt: string;
  data: Record<string, unknown>;
  /**
   * The data subject (a learner id) whose personal data `data` holds, so an erasure can find the event; absent
   * for events that carry no personal data. Stored, never sent.
   */
  subjectId?: string;
}

/**
 * Port: the transactional outbox. `add` joins the caller's transaction (through the UnitOfWork), so an event
 * exists if and only if its change was committed.
 */
export interface Outbox {
  add(event: DomainEvent): Promise<void>;
  /** `add` for many events at once (bulk writes such as imports): the same rows, in the given order. */
  addMany(events: readonly DomainEvent[]): Promise<void>;
  /** Events of a tenant in commit order (oldest first), for inspection and replay. */
  list(tenantId: string, filter: { since?: string; types?: readonly string[]; limit: number }): Promise<DomainEvent[]>;
  /**
   * POPIA erasure: replaces the `data` of every event of the tenant whose `subjectId` is `subjectId` with
   * `data`, in the caller's transaction, so no later delivery, retry or replay can send the personal data again.
   * Returns the ids of those events (oldest first); none is not an error, and running it twice changes nothing more.
   */
  redactSubject(tenantId: string, subjectId: string, data: Record<string, unknown>): Promise<string[]>;
}
