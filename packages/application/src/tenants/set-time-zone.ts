import { DomainError, parseTimeZone, type PlatformRepos, type TenantRepos } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { recordChange } from '../common/record-change.js';

/** Sets the time zone the tenant's dashboard shows times in (administrators; stored times stay UTC). */
export class SetTimeZone {
  constructor(private readonly deps: CoreDeps<TenantRepos & PlatformRepos>) {}

  async execute(actor: Actor, value: unknown): Promise<string> {
    const timeZone = parseTimeZone(value);
    const now = this.deps.clock.now();
    await this.deps.uow.run(async (tx) => {
      const tenant = await tx.tenants.findById(actor.tenantId);
      if (!tenant) throw DomainError.notFound('tenant', actor.tenantId);
      await tx.tenants.update({ ...tenant, timeZone });
      await recordChange(tx, actor, now, {
        action: 'tenant.time_zone_changed',
        resourceType: 'tenant',
        resourceId: tenant.id,
        details: { from: tenant.timeZone ?? null, to: timeZone },
      });
    });
    return timeZone;
  }
}
