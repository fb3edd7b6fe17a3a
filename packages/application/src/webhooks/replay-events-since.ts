import { expandWanted } from './event-expansion.js';
import { newDelivery } from './fan-out.js';
import type { ReplaySincePayload, WebhookDeps } from './webhook-ports.js';

const PAGE = 500;

/**
 * The replay job: a fresh delivery, due now, for every event of the subscribed types with `occurredAt >= since`.
 * Each page commits on its own; a job that crashes half-way runs again from the start, which only duplicates
 * deliveries (at-least-once, same event ids). A deleted subscription ends the job quietly.
 */
export class ReplayEventsSince {
  constructor(private readonly deps: Pick<WebhookDeps, 'uow' | 'clock' | 'expansions'>) {}

  async execute({ tenantId, subscriptionId, since }: ReplaySincePayload): Promise<number> {
    let after: string | null = null;
    let total = 0;
    for (;;) {
      const n: number = await this.deps.uow.run(async (tx) => {
        const s = await tx.webhookSubscriptions.findById(tenantId, subscriptionId);
        if (!s) return 0;
        const now = this.deps.clock.now();
        // Compact events of the subscribed public types come too: expanded now if nothing has expanded them yet.
        const compact = (this.deps.expansions ?? []).filter((x) => (s.events as string[]).includes(x.to));
        const events = await tx.outboxFeed.since(
          tenantId,
          since,
          [...s.events, ...compact.map((x) => x.from)],
          after,
          PAGE,
        );
        const expanded = await expandWanted(tx, compact, events, [s], now);
        const wanted = [...events.filter((e) => !compact.some((x) => x.from === e.type)), ...expanded];
        await tx.webhookDeliveries.insertMany(wanted.map((e) => newDelivery(e, s, now)));
        after = events[events.length - 1]?.id ?? after;
        return events.length;
      });
      total += n;
      if (n < PAGE) return total;
    }
  }
}
