import { PING_EVENT, type DomainEvent, type JobQueue, type PlatformRepos, type WebhookRepos } from '@fundi/domain';
import type { CoreDeps } from '../common/ports.js';
import { newDelivery, subscribersOf } from './fan-out.js';

/**
 * Another capability's reaction to committed events (notifications' triggers): called in the dispatcher's
 * transaction with the events of `types` among those taken, so its work (queueing jobs) commits with their
 * dispatch, never twice and never lost. It must be quick: queue work, do not do it.
 */
export interface EventReaction {
  types: readonly string[];
  /** The types among `types` whose `data` it reads (default: all of them); the others' data is not read at all. */
  readsDataOf?: readonly string[];
  react(tx: { jobs: JobQueue }, events: readonly DomainEvent[], now: Date): Promise<void>;
}

/**
 * Fans committed outbox events out to their subscribers: one delivery row per (event, subscription), and hands
 * them to the reactions of other capabilities. The events are marked dispatched in the same transaction that
 * writes their deliveries, so a crash either loses both or neither. Returns how many events were taken (a full
 * batch means more may be waiting).
 */
export class DispatchOutbox {
  /** The event types whose data a fan-out reads: a ping names its subscription there, and what reactions read. */
  private readonly withData: readonly string[];

  constructor(
    private readonly deps: Pick<CoreDeps<WebhookRepos & PlatformRepos>, 'uow' | 'clock'>,
    private readonly reactions: readonly EventReaction[] = [],
  ) {
    this.withData = [PING_EVENT, ...new Set(reactions.flatMap((r) => r.readsDataOf ?? r.types))];
  }

  /** The same dispatcher with `reactions` as well. */
  with(reactions: readonly EventReaction[]): DispatchOutbox {
    return new DispatchOutbox(this.deps, [...this.reactions, ...reactions]);
  }

  async execute(limit: number): Promise<number> {
    return this.deps.uow.run(async (tx) => {
      const now = this.deps.clock.now();
      const events = await tx.outboxFeed.takeUndispatched(limit, now.toISOString(), this.withData);
      if (events.length === 0) return 0;
      const subs = await tx.webhookSubscriptions.listForTenants([...new Set(events.map((e) => e.tenantId))]);
      const deliveries = events.flatMap((e) => subscribersOf(e, subs).map((s) => newDelivery(e, s, now)));
      if (deliveries.length) await tx.webhookDeliveries.insertMany(deliveries);
      for (const r of this.reactions) {
        const mine = events.filter((e) => r.types.includes(e.type));
        if (mine.length) await r.react(tx, mine, now);
      }
      return events.length;
    });
  }
}
