import type { DomainEvent } from '@fundi/domain';
import { EXPANDED_AT, type WebhookRepos, type WebhookSubscriptionSnapshot } from '@fundi/domain/webhooks';

/**
 * A compact event that stands for many public ones (docs/webhooks.md, "Compact events"): a bulk write stores one
 * event naming what it wrote, and the per-item events are made from it only where something needs them, when a
 * subscription of the tenant takes the public type at fan-out, or a replay since a date reaches it. Reactions of
 * other capabilities that name the compact type read it directly.
 */
export interface EventExpansion {
  /** The compact (internal) event type. */
  from: string;
  /** The public event type it expands to. */
  to: string;
  /**
   * The public events `events` stand for, made now: new ids, each compact event's `occurredAt`, subjects set, the
   * data read from current storage. `tx` is the caller's transaction, which holds every capability's repositories.
   */
  expand(tx: unknown, events: readonly DomainEvent[], now: Date): Promise<DomainEvent[]>;
}

const isExpanded = (e: DomainEvent) => typeof e.data[EXPANDED_AT] === 'string';

/**
 * Expands the compact events among `events` that some subscription in `subs` wants as `to` and that are not
 * expanded yet: the public events are stored (already dispatched) and the compact ones marked, in `tx`. Returns
 * the public events made.
 */
export async function expandWanted(
  tx: WebhookRepos,
  expansions: readonly EventExpansion[],
  events: readonly DomainEvent[],
  subs: readonly Pick<WebhookSubscriptionSnapshot, 'tenantId' | 'events'>[],
  now: Date,
): Promise<DomainEvent[]> {
  const made: DomainEvent[] = [];
  for (const x of expansions) {
    const wanted = events.filter(
      (e) =>
        e.type === x.from &&
        !isExpanded(e) &&
        subs.some((s) => s.tenantId === e.tenantId && (s.events as string[]).includes(x.to)),
    );
    // Marked first: a transaction that finds one marked meanwhile (a replay racing the fan-out) leaves it alone.
    const mine: DomainEvent[] = [];
    for (const e of wanted)
      if (await tx.outboxFeed.markExpanded(e.tenantId, e.id, { ...e.data, [EXPANDED_AT]: now.toISOString() }))
        mine.push(e);
    if (mine.length === 0) continue;
    const expanded = await x.expand(tx, mine, now);
    await tx.outboxFeed.addDispatched(expanded);
    made.push(...expanded);
  }
  return made;
}
