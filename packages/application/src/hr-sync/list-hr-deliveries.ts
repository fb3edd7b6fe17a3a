import type { Page, PageRequest } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { AttemptView } from '../webhooks/list-delivery-attempts.js';
import type { HrSyncDeps } from './hr-sync-ports.js';
import { requireAdmin } from './hr-sync-ports.js';
import type { HrOutboundUseCases } from './hr-outbound-use-cases.js';

/** `GET /hr-sync/deliveries`: every outbound attempt, newest first (empty before an outboundUrl was set). */
export class ListHrDeliveries {
  constructor(private readonly deps: Pick<HrSyncDeps, 'repos'> & { outbound: HrOutboundUseCases }) {}

  async execute(actor: Actor, page: PageRequest): Promise<Page<AttemptView>> {
    requireAdmin(actor);
    const c = await this.deps.repos.hrSyncConfigs.find(actor.tenantId);
    if (!c?.subscriptionId) return { items: [], total: 0, hasMore: false };
    return this.deps.outbound.listAttempts.execute(actor, c.subscriptionId, page);
  }
}
