import { DomainError } from '@fundi/domain';
import type { HrSyncConfigSnapshot } from '@fundi/domain/hr-sync';
import type { WebhookSubscriptionSnapshot } from '@fundi/domain/webhooks';
import type { HrSyncAllRepos } from './hr-sync-ports.js';

/** The tenant's outbound subscription id, or 409 when no outboundUrl was ever set. */
export async function requireOutbound(repos: Pick<HrSyncAllRepos, 'hrSyncConfigs'>, tenantId: string): Promise<string> {
  const c = await repos.hrSyncConfigs.find(tenantId);
  if (!c?.subscriptionId)
    throw DomainError.conflict('hr_outbound_not_configured', 'Set an outboundUrl first (PUT /hr-sync)');
  return c.subscriptionId;
}

/** The tenant's outbound subscription as stored, or null before an outboundUrl was set. */
export async function subscriptionOf(
  repos: Pick<HrSyncAllRepos, 'webhookSubscriptions'>,
  c: HrSyncConfigSnapshot,
): Promise<WebhookSubscriptionSnapshot | null> {
  return c.subscriptionId ? repos.webhookSubscriptions.findById(c.tenantId, c.subscriptionId) : null;
}
