import { DomainError } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { EvidencePorts } from './evidence-ports.js';

/** Sets a tenant's retention (operator: `fundi evidence retention`, or an administrator); 1 to 50 years. */
export class SetRetentionYears {
  constructor(private readonly d: EvidencePorts) {}

  async execute(tenantSlug: string, years: unknown, actor?: Actor): Promise<number> {
    if (typeof years !== 'number' || !Number.isInteger(years) || years < 1 || years > 50)
      throw DomainError.invalid('years', 'must be a whole number of years from 1 to 50');
    const tenant = await this.d.repos.tenants.findBySlug(tenantSlug);
    if (!tenant) throw DomainError.notFound('tenant', tenantSlug);
    const now = this.d.clock.now();
    await this.d.uow.run(async (tx) => {
      await tx.evidenceSettings.setRetentionYears(tenant.id, years);
      await recordChange(tx, actor ?? { tenantId: tenant.id, id: 'cli', role: 'admin', scopes: [] }, now, {
        action: 'evidence.retention_set',
        resourceType: 'tenant',
        resourceId: tenant.id,
        details: { years },
      });
    });
    return years;
  }
}
