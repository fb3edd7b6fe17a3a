import type { Readable } from 'node:stream';
import { DomainError, Tenant, newId, type PlatformRepos } from '@fundi/domain';
import type { WebhookRepos } from '@fundi/domain/webhooks';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { EvidencePorts, StoredFile } from './evidence-ports.js';

/** The largest file of any kind (video and archives); each kind's own limit is applied to the sniffed bytes. */
export const MAX_EVIDENCE_BYTES = 100 * 1024 * 1024;

/** Outbox event when evidence storage crosses 80% or 90% of the quota (internal: not a webhook event type). */
export const QUOTA_WARNING_EVENT = 'tenant.quota_warning';

/** The error of an upload the tenant's storage quota has no room for. */
export const quotaExceeded = (quota: number) =>
  new DomainError(
    'forbidden',
    'storage_quota_exceeded',
    `The tenant's storage quota of ${quota} bytes would be exceeded`,
    [],
    { quota },
  );

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

/**
 * When an upload takes the tenant's storage from below 90% (else 80%) of the quota to at or above it: one alert
 * and its audit entry, with the internal quota-warning event, inside the upload's transaction.
 */
export async function recordQuotaCrossing(
  tx: Pick<PlatformRepos, 'audit' | 'outbox'> & Pick<WebhookRepos, 'tenantAlerts'>,
  actor: Actor,
  now: Date,
  bytesBefore: number,
  after: number,
  quota: number,
): Promise<void> {
  for (const pct of [90, 80]) {
    const line = (quota * pct) / 100;
    if (bytesBefore < line && after >= line) {
      await tx.tenantAlerts.add({
        id: newId('alr'),
        tenantId: actor.tenantId,
        kind: `storage_${pct}`,
        createdAt: now.toISOString(),
        readAt: null,
        message: `Evidence storage has reached ${pct}% of the quota (${after} of ${quota} bytes)`,
      });
      await recordChange(tx, actor, now, {
        action: 'usage.threshold_crossed',
        resourceType: 'tenant',
        resourceId: actor.tenantId,
        details: { percent: pct, bytes: after, quota },
        // Internal event (not a webhook event type): the notifications' quota warning reacts to it.
        events: [{ type: QUOTA_WARNING_EVENT, data: { percent: pct, bytes: after, quota } }],
      });
      break;
    }
  }
}
