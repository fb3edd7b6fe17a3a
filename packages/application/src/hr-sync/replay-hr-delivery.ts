import type { Actor } from '../common/actor.js';
import type { ReplayedDelivery } from '../webhooks/replay-delivery.js';
import { requireOutbound } from './hr-outbound-subscription.js';
import type { HrSyncDeps } from './hr-sync-ports.js';
import { requireAdmin } from './hr-sync-ports.js';
import type { HrOutboundUseCases } from './hr-outbound-use-cases.js';

/** `POST /hr-sync/deliveries/{deliveryId}/replay`: the event again, as a fresh delivery (409 while stopped). */
export class ReplayHrDelivery {
  constructor(private readonly deps: Pick<HrSyncDeps, 'repos'> & { outbound: HrOutboundUseCases }) {}

  async execute(actor: Actor, deliveryId: string): Promise<ReplayedDelivery> {
    requireAdmin(actor);
    const subscriptionId = await requireOutbound(this.deps.repos, actor.tenantId);
    return this.deps.outbound.replayDelivery.execute(actor, subscriptionId, deliveryId);
  }
}
