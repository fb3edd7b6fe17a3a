import type { DomainEvent } from '../events/outbox.js';

/**
 * What reading the `data` of an event taken without it throws (`OutboxFeed.takeUndispatched` with `withData` not
 * naming its type): a reaction that reads data it did not ask for fails loudly instead of getting `{}`.
 */
export function unreadEventData(e: { id: string; type: string }): Error {
  return new Error(`the data of event ${e.id} (${e.type}) was not read`);
}

/**
 * Whether `OutboxFeed.takeUndispatched` with `withData` comes with the event's data: always without `withData`,
 * else for the types it names and for events without a subject (the rule every feed follows).
 */
export function takenWithData(e: { type: string; subjectId?: string }, withData?: readonly string[]): boolean {
  return !withData || withData.includes(e.type) || !e.subjectId;
}

/** The field a compact event's data has once it has been expanded (its public events exist from then on). */
export const EXPANDED_AT = 'expandedAt';

/**
 * Port: the outbox as the dispatcher sees it. `takeUndispatched` locks (SKIP LOCKED), returns and takes off the
 * queue of events to fan out up to `limit` events (`at`: the time of the dispatch); run it in the transaction
 * that writes their deliveries, so a crash leaves them to dispatch. With `withData`, only events of those types,
 * and events without a subject, come with their `data` (the others' is not read from storage, and reading it
 * throws); without it, all do.
 */
export interface OutboxFeed {
  takeUndispatched(limit: number, at: string, withData?: readonly string[]): Promise<DomainEvent[]>;
  /**
   * Whether any event waits to be fanned out: a look without taking anything, so an idle dispatcher needs no
   * transaction (a later commit is found by the next look, as by the next take).
   */
  anyUndispatched(): Promise<boolean>;
  /** Events of a tenant with `occurredAt >= since` and one of `types`, in id order after `afterId`. */
  since(
    tenantId: string,
    since: string,
    types: readonly string[],
    afterId: string | null,
    limit: number,
  ): Promise<DomainEvent[]>;
  findById(tenantId: string, id: string): Promise<DomainEvent | null>;
  /** Events by id, of any tenant, with their data (the fan-out reads the events it hands to its own worker). */
  findMany(ids: readonly string[]): Promise<DomainEvent[]>;
  /**
   * Writes events that are fanned out where they are made (the events an expansion makes of a compact event,
   * `EventExpansion` in the application layer): stored like any event, never queued for the dispatcher.
   */
  addDispatched(events: readonly DomainEvent[]): Promise<void>;
  /**
   * Marks a compact event expanded: its `data` becomes `data`, unless it is marked already (its stored data names
   * `EXPANDED_AT`). False when it was: another transaction expanded it first, and its events are not made twice.
   */
  markExpanded(tenantId: string, id: string, data: Record<string, unknown>): Promise<boolean>;
}
