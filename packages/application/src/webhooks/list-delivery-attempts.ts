import type { Page, PageRequest } from '@fundi/domain';
import type { AttemptSnapshot } from '@fundi/domain/webhooks';
import type { Actor } from '../common/actor.js';
import type { WebhookDeps } from './webhook-ports.js';
import { requireSubscription } from './subscription-view.js';

export type AttemptView = Omit<AttemptSnapshot, 'tenantId' | 'subscriptionId'>;

/** The delivery log of a subscription: every attempt, newest first. */
export class ListDeliveryAttempts {
  constructor(private readonly deps: Pick<WebhookDeps, 'repos' | 'purpose'>) {}

  async execute(actor: Actor, subscriptionId: string, page: PageRequest): Promise<Page<AttemptView>> {
    await requireSubscription(this.deps.repos, actor.tenantId, subscriptionId, this.deps.purpose);
    const result = await this.deps.repos.webhookAttempts.list(actor.tenantId, subscriptionId, page);
    return { ...result, items: result.items.map(({ tenantId: _t, subscriptionId: _s, ...rest }) => rest) };
  }
}
