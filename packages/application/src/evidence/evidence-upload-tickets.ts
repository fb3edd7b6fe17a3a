import { DomainError, newId } from '@fundi/domain';
import { SIGNED_URL_SECONDS, type UploadTicketSnapshot } from '@fundi/domain/evidence';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { EvidencePorts } from './evidence-ports.js';
import { MAX_EVIDENCE_BYTES, quotaExceeded, tenantQuota } from './evidence-quota.js';

/** The purpose the upload URLs are signed for. */
export const UPLOAD = 'evidence-upload';

export interface UploadGrant {
  evidenceId: string;
  version: number;
  uploadUrl: string;
  method: 'PUT';
  expiresAt: string;
}

export function grantUpload(d: Pick<EvidencePorts, 'settings' | 'signer'>, t: UploadTicketSnapshot): UploadGrant {
  const payload = `${t.tenantId}|${t.id}|${Date.parse(t.expiresAt)}`;
  return {
    evidenceId: t.evidenceId,
    version: t.version,
    uploadUrl: `${d.settings.publicUrl}/api/v1/files/uploads/${d.signer.sign(payload, UPLOAD)}`,
    method: 'PUT',
    expiresAt: t.expiresAt,
  };
}

export function parseSize(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_EVIDENCE_BYTES) {
    throw DomainError.invalid('size', `must be the file's size in bytes, 1 to ${MAX_EVIDENCE_BYTES}`);
  }
  return value;
}

/** What an upload URL is issued for; the ticket adds its id, the caller, the time and the expiry. */
export type UploadTicketFields = Pick<
  UploadTicketSnapshot,
  'evidenceId' | 'version' | 'learnerId' | 'enrolmentId' | 'moduleId' | 'evidenceType' | 'filename' | 'size'
>;

/** Checks the declared size against the quota, stores the single-use ticket with its audit entry, grants its URL. */
export async function issueUploadUrl(
  d: EvidencePorts,
  actor: Actor,
  now: Date,
  fields: UploadTicketFields,
): Promise<UploadGrant> {
  const { used, quota } = await tenantQuota(d.repos, actor.tenantId);
  if (quota !== null && used + fields.size > quota) throw quotaExceeded(quota);
  const ticket: UploadTicketSnapshot = {
    id: newId('upl', now.getTime()),
    tenantId: actor.tenantId,
    ...fields,
    createdBy: actor.id,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + SIGNED_URL_SECONDS * 1000).toISOString(),
    usedAt: null,
  };
  await d.uow.run(async (tx) => {
    await tx.uploadTickets.insert(ticket);
    await recordChange(tx, actor, now, {
      action: 'evidence.upload_url_issued',
      resourceType: 'evidence',
      resourceId: ticket.evidenceId,
      learnerId: ticket.learnerId,
      details: { version: ticket.version, size: fields.size },
    });
  });
  return grantUpload(d, ticket);
}
