import type { Actor } from '../common/actor.js';
import { requireOutbound } from './hr-outbound-subscription.js';
import type { HrSyncDeps } from './hr-sync-ports.js';
import { requireAdmin } from './hr-sync-ports.js';
import type { HrOutboundUseCases } from './hr-outbound-use-cases.js';

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
