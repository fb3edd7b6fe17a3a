import type { Page, PageRequest } from '@fundi/domain';
import type { HrEventEntry } from '@fundi/domain/hr-sync';
import type { Actor } from '../common/actor.js';
import type { AttemptView, ListDeliveryAttempts } from '../webhooks/read-subscriptions.js';
import type { ReplayDelivery, ReplayedDelivery } from '../webhooks/replay.js';
import type { RotateWebhookSecret } from '../webhooks/subscription-actions.js';
import { requireOutbound } from './hr-outbound-subscription.js';
import type { HrSyncDeps } from './hr-sync-ports.js';
import { requireAdmin } from './hr-sync-ports.js';

export type HrEventView = Omit<HrEventEntry, 'tenantId' | 'eventKey'>;

/** `GET /hr-sync/events`: every inbound call after authentication, newest first. */
export class ListHrEvents {
  constructor(private readonly deps: Pick<HrSyncDeps, 'repos'>) {}

  async execute(actor: Actor, page: PageRequest): Promise<Page<HrEventView>> {
    requireAdmin(actor);
    const result = await this.deps.repos.hrEvents.list(actor.tenantId, page);
    return { ...result, items: result.items.map(({ tenantId: _t, eventKey: _k, ...rest }) => rest) };
  }
}

/**
 * The outbound side runs on the webhook machinery: these are the webhook use cases over the tenant's HR
 * subscription (purpose `hr_sync`).
 */
export interface HrOutboundUseCases {
  listAttempts: ListDeliveryAttempts;
  replayDelivery: ReplayDelivery;
  rotateSecret: RotateWebhookSecret;
}

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

/** `POST /hr-sync/deliveries/{deliveryId}/replay`: the event again, as a fresh delivery (409 while stopped). */
export class ReplayHrDelivery {
  constructor(private readonly deps: Pick<HrSyncDeps, 'repos'> & { outbound: HrOutboundUseCases }) {}

  async execute(actor: Actor, deliveryId: string): Promise<ReplayedDelivery> {
    requireAdmin(actor);
    const subscriptionId = await requireOutbound(this.deps.repos, actor.tenantId);
    return this.deps.outbound.replayDelivery.execute(actor, subscriptionId, deliveryId);
  }
}

/** `POST /hr-sync/rotate-signing-secret`: a new outbound signing secret; the old one signs beside it for 24 h. */
export class RotateHrSigningSecret {
  constructor(private readonly deps: Pick<HrSyncDeps, 'repos'> & { outbound: HrOutboundUseCases }) {}

  async execute(actor: Actor): Promise<{ signingSecret: string; previousSecretExpiresAt: string | null }> {
    requireAdmin(actor);
    const subscriptionId = await requireOutbound(this.deps.repos, actor.tenantId);
    const s = await this.deps.outbound.rotateSecret.execute(actor, subscriptionId, {});
    return { signingSecret: s.secret, previousSecretExpiresAt: s.previousSecretExpiresAt };
  }
}
