import type { Actor } from '../common/actor.js';
import type { WebhookDeps } from './webhook-ports.js';
import { requireSubscription, subscriptionView, type WebhookSubscriptionView } from './subscription-view.js';

export class GetWebhookSubscription {
  constructor(private readonly deps: Pick<WebhookDeps, 'repos' | 'purpose'>) {}

  async execute(actor: Actor, id: string): Promise<WebhookSubscriptionView> {
    return subscriptionView(await requireSubscription(this.deps.repos, actor.tenantId, id, this.deps.purpose));
  }
}
