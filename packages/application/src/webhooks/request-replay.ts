import { DomainError } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { requireEnabled, requireSubscription } from './subscription-view.js';
import { enqueueJob } from '../jobs/job-definition.js';
import { REPLAY_SINCE, type WebhookDeps } from './webhook-ports.js';

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
