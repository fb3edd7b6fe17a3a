import { newId } from '@fundi/domain';
import { afterAttempt, type AttemptOutcome, type AttemptResult, type AttemptSnapshot } from '@fundi/domain/webhooks';
import type { DeliveryTask } from './delivery-task.js';
import { disableAfterFailures } from './disable-after-failures.js';
import type { WebhookDeps } from './webhook-ports.js';

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
  constructor(private readonly deps: Pick<WebhookDeps, 'repos' | 'uow' | 'clock' | 'purposes'>) {}

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
      for (const o of dead) await disableAfterFailures(tx, o.task, now, this.deps.purposes ?? []);
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
