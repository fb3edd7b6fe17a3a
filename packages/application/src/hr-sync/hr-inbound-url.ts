import type { HrSyncAllRepos, HrSyncDeps } from './hr-sync-ports.js';

/** The tenant's inbound address: its Form B path under the public URL, or the origin the caller used. */
export async function inboundUrl(
  deps: Pick<HrSyncDeps, 'publicUrl'>,
  repos: Pick<HrSyncAllRepos, 'tenants'>,
  tenantId: string,
  origin: string,
): Promise<string> {
  const tenant = await repos.tenants.findById(tenantId);
  const base = deps.publicUrl || origin;
  return `${base}/api/v1/tenants/${encodeURIComponent(tenant?.slug ?? tenantId)}/webhooks/hr-sync`;
}
