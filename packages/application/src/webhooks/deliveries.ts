import {
  MAX_ATTEMPTS,
  WebhookSubscription,
  afterAttempt,
  hrOutboundBody,
  isHrOutboundEvent,
  newId,
  type AttemptOutcome,
  type AttemptResult,
  type AttemptSnapshot,
  type ClaimedDelivery,
} from '@fundi/domain';
import type { WebhookRepos, PlatformRepos } from '@fundi/domain';
import { switchSubscription } from './enablement.js';
import { systemActor, type OutgoingWebhook, type WebhookDeps } from './webhook-ports.js';

/** A leased delivery, ready to send: `attempt` is the number this try will have. */
export interface DeliveryTask {
  deliveryId: string;
  tenantId: string;
  subscriptionId: string;
  attempt: number;
  webhook: Omit<OutgoingWebhook, 'timestamp'>;
}

/**
 * Opens sealed signing secrets, each once per call of the returned function's owner (a claim or a fan-out opens the
 * same subscription's secret for many deliveries).
 */
export function secretOpener(box: WebhookDeps['box']): (sealed: string) => string {
  const opened = new Map<string, string>();
  return (sealed) => opened.get(sealed) ?? opened.set(sealed, box.open(sealed)).get(sealed)!;
}

/** A leased delivery made ready to send: the webhook envelope and the subscription's opened signing secrets. */
export function deliveryTask(c: ClaimedDelivery, now: Date, open: (sealed: string) => string): DeliveryTask {
  const { delivery: d, event: e } = c;
  // HR events reach only the HR subscription, in the body HR systems expect (docs/api.md, "HR sync").
  const body = isHrOutboundEvent(e.type)
    ? hrOutboundBody(e.type, e.occurredAt, e.data)
    : JSON.stringify({ id: e.id, type: e.type, timestamp: e.occurredAt, tenantId: e.tenantId, data: e.data });
  return {
    deliveryId: d.id,
    tenantId: d.tenantId,
    subscriptionId: d.subscriptionId,
    attempt: d.attempts + 1,
    webhook: {
      url: c.subscription.url,
      eventId: e.id,
      eventType: e.type,
      body,
      secrets: WebhookSubscription.signingSecrets(c.subscription, now).map(open),
    },
  };
}

/**
 * Leases due deliveries to `owner` and prepares them: the webhook envelope, and the opened signing secrets. The claim
 * is atomic by itself, so it needs no unit of work (one round trip on Postgres).
 */
export class ClaimDeliveries {
  constructor(private readonly deps: Pick<WebhookDeps, 'repos' | 'clock' | 'box'>) {}

  async execute(owner: string, limit: number, leaseMs: number): Promise<DeliveryTask[]> {
    const now = this.deps.clock.now();
    const claimed = await this.deps.repos.webhookDeliveries.claimDue(
      owner,
      now.toISOString(),
      new Date(now.getTime() + leaseMs).toISOString(),
      limit,
    );
    const open = secretOpener(this.deps.box);
    return claimed.map((c) => deliveryTask(c, now, open));
  }
}

export interface DeliveryOutcome {
  task: DeliveryTask;
  result: AttemptResult;
  /** When the attempt started. */
  at: Date;
}

/**
 * Writes a batch of attempt outcomes atomically: every attempt into the log and each delivery's next state
 * (delivered, retry due per the schedule, or dead). The common batch is one repository call (one statement on
 * Postgres); a batch with a dead delivery runs in a unit of work that also disables the subscription, with its
 * audit entry and a tenant alert.
 */
export class RecordDeliveryOutcomes {
  constructor(private readonly deps: Pick<WebhookDeps, 'repos' | 'uow' | 'clock'>) {}

  async execute(owner: string, outcomes: readonly DeliveryOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const now = this.deps.clock.now();
    const saved: AttemptOutcome[] = outcomes.map((o) => ({
      attempt: attemptOf(o),
      change: afterAttempt(o.task.attempt, o.result, now),
    }));
    const dead = outcomes.filter((_, i) => saved[i]!.change.status === 'dead');
    if (dead.length === 0) return this.deps.repos.webhookDeliveries.saveOutcomes(owner, saved);
    await this.deps.uow.run(async (tx) => {
      await tx.webhookDeliveries.saveOutcomes(owner, saved);
      for (const o of dead) await disableAfterFailures(tx, o, now);
    });
  }
}

function attemptOf(o: DeliveryOutcome): AttemptSnapshot {
  const t = o.task;
  return {
    id: newId('wha', o.at.getTime()),
    deliveryId: t.deliveryId,
    tenantId: t.tenantId,
    subscriptionId: t.subscriptionId,
    eventId: t.webhook.eventId,
    eventType: t.webhook.eventType,
    attempt: t.attempt,
    at: o.at.toISOString(),
    ...o.result,
  };
}

/** The 5th failed attempt of an event disables the subscription and tells the tenant's administrators. */
async function disableAfterFailures(tx: WebhookRepos & PlatformRepos, o: DeliveryOutcome, now: Date): Promise<void> {
  const s = await tx.webhookSubscriptions.findById(o.task.tenantId, o.task.subscriptionId);
  if (!s?.enabled) return;
  await switchSubscription(tx, systemActor(s.tenantId), s, false, 'delivery_failed', now);
  // Internal event (no webhook event type): the admins' "webhook disabled" notification reacts to it.
  if (s.purpose !== 'hr_sync')
    await tx.outbox.add({
      id: newId('evt'),
      tenantId: s.tenantId,
      type: 'webhook.subscription_disabled',
      occurredAt: now.toISOString(),
      data: { subscriptionId: s.id, url: s.url },
    });
  await tx.tenantAlerts.add({
    id: newId('alr', now.getTime()),
    tenantId: s.tenantId,
    kind: s.purpose === 'hr_sync' ? 'hr_sync_outbound_disabled' : 'webhook_subscription_disabled',
    createdAt: now.toISOString(),
    readAt: null,
    message:
      s.purpose === 'hr_sync'
        ? `HR outbound deliveries to ${s.url} were stopped: event ${o.task.webhook.eventId} failed ${MAX_ATTEMPTS} delivery attempts. ` +
          'Fix the receiver, then PUT /hr-sync with enabled: true; undelivered events are sent again.'
        : `Webhook subscription ${s.id} (${s.url}) was disabled: event ${o.task.webhook.eventId} failed ${MAX_ATTEMPTS} delivery attempts. ` +
          'Fix the receiver, then POST /webhook-subscriptions/{id}/enable; undelivered events are sent again.',
  });
}
