import type { Readable } from 'node:stream';
import { DomainError, Tenant } from '@fundi/domain';
import { quotaExceeded } from './evidence-errors.js';
import type { EvidencePorts, StoredFile } from './evidence-ports.js';

/** The largest file of any kind (video and archives); each kind's own limit is applied to the sniffed bytes. */
export const MAX_EVIDENCE_BYTES = 100 * 1024 * 1024;

/** Outbox event when evidence storage crosses 80% or 90% of the quota (internal: not a webhook event type). */
export const QUOTA_WARNING_EVENT = 'tenant.quota_warning';

/** The tenant's evidence bytes in use and its storage quota (null: no quota). */
export async function tenantQuota(
  repos: EvidencePorts['repos'],
  tenantId: string,
): Promise<{ used: number; quota: number | null }> {
  const tenant = await repos.tenants.findById(tenantId);
  if (!tenant) throw DomainError.notFound('tenant', tenantId);
  const quota = Tenant.limits(tenant).storageBytes;
  return { used: (await repos.evidence.usage(tenantId)).bytes, quota };
}

/** Stores the bytes under `key` within the quota; removes them again when anything after fails. */
export async function storeWithinQuota(
  d: Pick<EvidencePorts, 'repos' | 'files'>,
  tenantId: string,
  key: string,
  source: Readable,
  expectSize?: number,
): Promise<StoredFile> {
  const { used, quota } = await tenantQuota(d.repos, tenantId);
  if (quota !== null && used + (expectSize ?? 1) > quota) {
    source.destroy();
    throw quotaExceeded(quota);
  }
  const room = quota === null ? MAX_EVIDENCE_BYTES : Math.min(MAX_EVIDENCE_BYTES, quota - used);
  try {
    return await d.files.store(key, source, {
      maxBytes: room,
      ...(expectSize !== undefined ? { expectSize } : {}),
    });
  } catch (e) {
    if (quota !== null && room < MAX_EVIDENCE_BYTES && e instanceof DomainError && e.code === 'payload_too_large')
      throw quotaExceeded(quota);
    throw e;
  }
}
