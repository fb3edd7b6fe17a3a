import type { Page, PageRequest } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { WebhookDeps } from './webhook-ports.js';
import { subscriptionView, type WebhookSubscriptionView } from './subscription-view.js';

export class ListWebhookSubscriptions {
  constructor(private readonly deps: Pick<WebhookDeps, 'repos' | 'purpose'>) {}

  async execute(actor: Actor, page: PageRequest): Promise<Page<WebhookSubscriptionView>> {
    const result = await this.deps.repos.webhookSubscriptions.list(actor.tenantId, page);
    return { ...result, items: result.items.map(subscriptionView) };
  }
}
