import { DomainError } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { expandWanted } from './event-expansion.js';
import { newDelivery } from './fan-out.js';
import { requireEnabled, requireSubscription } from './subscription-view.js';
import { enqueueJob } from '../jobs/job-definition.js';
import { REPLAY_SINCE, type ReplaySincePayload, type WebhookDeps } from './webhook-ports.js';

export interface ReplayedDelivery {
  deliveryId: string;
  eventId: string;
  eventType: string;
  status: 'pending';
}

/** Queues the event of one delivery again, as a fresh delivery (same event id, new schedule). */
export class ReplayDelivery {
  constructor(private readonly deps: WebhookDeps) {}

  async execute(actor: Actor, subscriptionId: string, deliveryId: string): Promise<ReplayedDelivery> {
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const s = await requireSubscription(tx, actor.tenantId, subscriptionId, this.deps.purpose);
      const old = await tx.webhookDeliveries.findById(actor.tenantId, subscriptionId, deliveryId);
      if (!old) throw DomainError.notFound('delivery', deliveryId);
      requireEnabled(s);
      const event = await tx.outboxFeed.findById(actor.tenantId, old.eventId);
      if (!event) throw DomainError.notFound('event', old.eventId);
      const d = newDelivery(event, s, now);
      await tx.webhookDeliveries.insertMany([d]);
      await recordChange(tx, actor, now, {
        action: 'webhook_delivery.replayed',
        resourceType: 'webhook_subscription',
        resourceId: subscriptionId,
        details: { deliveryId, newDeliveryId: d.id, eventId: event.id },
      });
      return { deliveryId: d.id, eventId: event.id, eventType: event.type, status: 'pending' as const };
    });
  }
}

export interface QueuedReplay {
  jobId: string;
  since: string;
  status: 'queued';
}

/** Accepts `POST .../replay {since}`; the worker re-queues the events in the background (ReplayEventsSince). */
export class RequestReplay {
  constructor(private readonly deps: WebhookDeps) {}

  async execute(actor: Actor, subscriptionId: string, since: string): Promise<QueuedReplay> {
    const now = this.deps.clock.now();
    if (since > now.toISOString()) throw DomainError.invalid('since', 'must not be in the future');
    const jobId = await this.deps.uow.run(async (tx) => {
      requireEnabled(await requireSubscription(tx, actor.tenantId, subscriptionId, this.deps.purpose));
      const job = await enqueueJob(tx.jobs, REPLAY_SINCE, { tenantId: actor.tenantId, subscriptionId, since }, { now });
      await recordChange(tx, actor, now, {
        action: 'webhook_subscription.replay_requested',
        resourceType: 'webhook_subscription',
        resourceId: subscriptionId,
        details: { since, jobId: job.id },
      });
      return job.id;
    });
    return { jobId, since, status: 'queued' };
  }
}

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
