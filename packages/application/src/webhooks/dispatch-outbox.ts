import type { DomainEvent, JobQueue, PlatformRepos } from '@fundi/domain';
import {
  PING_EVENT,
  takenWithData,
  type DeliverySnapshot,
  type WebhookRepos,
  type WebhookSubscriptionSnapshot,
} from '@fundi/domain/webhooks';
import type { CoreDeps } from '../common/ports.js';
import { deliveryTask, secretOpener, type DeliveryTask } from './delivery-task.js';
import { newDelivery, subscribersOf } from './fan-out.js';
import { expandWanted } from './event-expansion.js';
import type { WebhookDeps } from './webhook-ports.js';

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
 * Deliveries the caller can send at once (its free room): the fan-out leases up to `room` of the new deliveries to
 * `owner` in its own transaction and returns them ready to send, so they need no claim of their own.
 */
export interface HandOff {
  owner: string;
  leaseMs: number;
  room: number;
}

export interface Dispatched {
  /** Events taken (a full batch means more may be waiting). */
  taken: number;
  /** The deliveries leased to the hand-off's owner, ready to send. */
  tasks: DeliveryTask[];
}

/**
 * Fans committed outbox events out to their subscribers: one delivery row per (event, subscription), and hands
 * them to the reactions of other capabilities. The events are marked dispatched in the same transaction that
 * writes their deliveries, so a crash either loses both or neither. With a hand-off, the first deliveries due are
 * written already leased to the calling worker and returned to it; if it dies, their lease runs out and any worker
 * claims them (docs/webhooks.md, "Delivery states and the exact rules").
 */
export class DispatchOutbox {
  /** The event types whose data a fan-out reads: a ping names its subscription there, and what reactions read. */
  private readonly withData: readonly string[];

  constructor(
    private readonly deps: Pick<CoreDeps<WebhookRepos & PlatformRepos>, 'repos' | 'uow' | 'clock'> &
      Pick<WebhookDeps, 'box' | 'expansions' | 'purposes'>,
    private readonly reactions: readonly EventReaction[] = [],
  ) {
    this.withData = [
      PING_EVENT,
      ...new Set([
        ...reactions.flatMap((r) => r.readsDataOf ?? r.types),
        ...(deps.expansions ?? []).map((x) => x.from),
      ]),
    ];
  }

  /** The same dispatcher with `reactions` as well. */
  with(reactions: readonly EventReaction[]): DispatchOutbox {
    return new DispatchOutbox(this.deps, [...this.reactions, ...reactions]);
  }

  async execute(limit: number, handOff?: HandOff): Promise<Dispatched> {
    // An idle poll looks first, outside a transaction: one statement, where the take costs a transaction (on
    // Postgres BEGIN, the take and COMMIT, three round trips) even when it finds nothing.
    if (!(await this.deps.repos.outboxFeed.anyUndispatched())) return { taken: 0, tasks: [] };
    return this.deps.uow.run(async (tx) => {
      const now = this.deps.clock.now();
      const events = await tx.outboxFeed.takeUndispatched(limit, now.toISOString(), this.withData);
      if (events.length === 0) return { taken: 0, tasks: [] };
      const subs = await tx.webhookSubscriptions.listForTenants([...new Set(events.map((e) => e.tenantId))]);
      // Compact events become their public events here when a subscription takes those (event-expansion.ts).
      const expanded = await expandWanted(tx, this.deps.expansions ?? [], events, subs, now);
      const fanned = expanded.length ? [...events, ...expanded] : events;
      const made = fanned.flatMap((e) => subscribersOf(e, subs).map((s) => ({ e, s, d: newDelivery(e, s, now) })));
      const handed = handOff ? this.lease(made, handOff, now) : [];
      if (made.length) await tx.webhookDeliveries.insertMany(made.map((m) => m.d));
      for (const r of this.reactions) {
        const mine = events.filter((e) => r.types.includes(e.type));
        if (mine.length) await r.react(tx, mine, now);
      }
      return { taken: events.length, tasks: await this.tasksOf(tx, handed, now, expanded) };
    });
  }

  /** Leases the first due deliveries (up to the room) to the hand-off's owner. */
  private lease(made: Made[], h: HandOff, now: Date): Made[] {
    const until = new Date(now.getTime() + h.leaseMs).toISOString();
    const handed: Made[] = [];
    for (const m of made) {
      if (handed.length >= h.room) break;
      if (m.d.status !== 'pending') continue;
      m.d.leaseOwner = h.owner;
      m.d.leaseUntil = until;
      handed.push(m);
    }
    return handed;
  }

  /**
   * The handed deliveries ready to send; the events taken without their data are read again, whole (those made
   * here by an expansion are whole already).
   */
  private async tasksOf(
    tx: WebhookRepos,
    handed: Made[],
    now: Date,
    expanded: readonly DomainEvent[],
  ): Promise<DeliveryTask[]> {
    if (handed.length === 0) return [];
    const made = new Set(expanded);
    const lean = [
      ...new Set(handed.filter((m) => !made.has(m.e) && !takenWithData(m.e, this.withData)).map((m) => m.e.id)),
    ];
    const whole = new Map((lean.length ? await tx.outboxFeed.findMany(lean) : []).map((e) => [e.id, e]));
    const open = secretOpener(this.deps.box);
    return handed.map((m) =>
      deliveryTask(
        { delivery: m.d, event: whole.get(m.e.id) ?? m.e, subscription: m.s },
        now,
        open,
        this.deps.purposes,
      ),
    );
  }
}

interface Made {
  e: DomainEvent;
  s: WebhookSubscriptionSnapshot;
  d: DeliverySnapshot;
}
