import { Tenant, type TenantLimits, type TenantSnapshot, type TenantRepos, type PlatformRepos } from '@fundi/domain';
import { operator } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { recordChange } from '../common/record-change.js';
import { tenantBySlug } from './tenant-lookup.js';

export interface TenantConfigView {
  tenant: Pick<TenantSnapshot, 'id' | 'slug' | 'name' | 'plan' | 'limitOverrides'>;
  limits: TenantLimits;
}

/** Changes a tenant's plan and limit overrides (a tenant may override any number of its plan). Operator only. */
export class ReconfigureTenant {
  constructor(private readonly deps: CoreDeps<TenantRepos & PlatformRepos>) {}

  async execute(
    slug: string,
    change: { plan?: unknown; overrides?: Partial<Record<keyof TenantLimits, unknown>> },
  ): Promise<TenantConfigView> {
    const current = await tenantBySlug(this.deps.repos, slug);
    const next = Tenant.reconfigure(current, change);
    const now = this.deps.clock.now();
    await this.deps.uow.run(async (tx) => {
      await tx.tenants.update(next);
      await recordChange(tx, operator(next.id), now, {
        action: 'tenant.reconfigured',
        resourceType: 'tenant',
        resourceId: next.id,
        details: { plan: next.plan, limitOverrides: next.limitOverrides },
      });
    });
    const { id, name, plan, limitOverrides } = next;
    return { tenant: { id, slug, name, plan, limitOverrides }, limits: Tenant.limits(next) };
  }
}
