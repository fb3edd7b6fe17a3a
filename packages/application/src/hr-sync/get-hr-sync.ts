import { HrSyncConfig } from '@fundi/domain/hr-sync';
import type { Actor } from '../common/actor.js';
import type { HrSyncDeps } from './hr-sync-ports.js';
import { requireAdmin } from './hr-sync-ports.js';
import { hrSyncView, type HrSyncView } from './hr-sync-view.js';
import { inboundUrl } from './hr-inbound-url.js';
import { subscriptionOf } from './hr-outbound-subscription.js';

/** `GET /hr-sync`: the stored configuration, or the initial one (disabled, the specification's mapping). */
export class GetHrSync {
  constructor(private readonly deps: Pick<HrSyncDeps, 'repos' | 'clock' | 'publicUrl'>) {}

  async execute(actor: Actor, origin: string): Promise<HrSyncView> {
    requireAdmin(actor);
    const { repos } = this.deps;
    const c =
      (await repos.hrSyncConfigs.find(actor.tenantId)) ?? HrSyncConfig.initial(actor.tenantId, this.deps.clock.now());
    return hrSyncView(c, await inboundUrl(this.deps, repos, actor.tenantId, origin), await subscriptionOf(repos, c));
  }
}
