import type { WebhookRepos, PlatformRepos } from '@fundi/domain';
import type { CoreDeps } from '../shared/ports.js';
import { newDelivery, subscribersOf } from './fan-out.js';

/**
 * Fans committed outbox events out to their subscribers: one delivery row per (event, subscription). The
 * events are marked dispatched in the same transaction that writes their deliveries, so a crash either loses
 * both or neither. Returns how many events were taken (a full batch means more may be waiting).
 */
export class DispatchOutbox {
  constructor(private readonly deps: Pick<CoreDeps<WebhookRepos & PlatformRepos>, 'uow' | 'clock'>) {}

  async execute(limit: number): Promise<number> {
    return this.deps.uow.run(async (tx) => {
      const now = this.deps.clock.now();
      const events = await tx.outboxFeed.takeUndispatched(limit, now.toISOString());
      if (events.length === 0) return 0;
      const subs = await tx.webhookSubscriptions.listForTenants([...new Set(events.map((e) => e.tenantId))]);
      const deliveries = events.flatMap((e) => subscribersOf(e, subs).map((s) => newDelivery(e, s, now)));
      if (deliveries.length) await tx.webhookDeliveries.insertMany(deliveries);
      return events.length;
    });
  }
}
