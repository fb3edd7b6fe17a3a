import { DomainError } from '@fundi/domain';
import type { HrSyncAllRepos } from './hr-sync-ports.js';

/** The tenant's outbound subscription id, or 409 when no outboundUrl was ever set. */
export async function requireOutbound(repos: Pick<HrSyncAllRepos, 'hrSyncConfigs'>, tenantId: string): Promise<string> {
  const c = await repos.hrSyncConfigs.find(tenantId);
  if (!c?.subscriptionId)
    throw DomainError.conflict('hr_outbound_not_configured', 'Set an outboundUrl first (PUT /hr-sync)');
  return c.subscriptionId;
}
