import { DomainError, newId } from '@fundi/domain';
import { Evidence, SIGNED_URL_SECONDS } from '@fundi/domain/evidence';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { EvidencePorts } from './evidence-ports.js';
import { BUNDLE, type DownloadGrant, bundleEntryName, oneLearner, storedZipSize } from './evidence-downloads.js';

/**
 * A signed URL (3600 s) to one ZIP of up to 500 pieces of evidence (their current versions), all of the caller's
 * tenant; the ZIP is written while it is sent, decrypting file by file: nothing is staged on disk.
 */
export class IssueBundleUrl {
  constructor(private readonly d: EvidencePorts) {}

  async execute(actor: Actor, ids: readonly string[], ip: string | null): Promise<DownloadGrant & { count: number }> {
    const unique = [...new Set(ids)];
    if (unique.length === 0 || unique.length > 500)
      throw DomainError.invalid('evidenceIds', 'must name 1 to 500 pieces of evidence');
    const found = await this.d.repos.evidence.findByIds(actor.tenantId, unique);
    const missing = unique.filter((id) => !found.some((e) => e.id === id));
    if (missing.length)
      throw new DomainError(
        'not_found',
        'not_found',
        `Unknown evidence: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', ...' : ''}`,
        [],
        { missing },
      );
    const awaiting = found.filter((e) => Evidence.isAwaitingUpload(e)).map((e) => e.id);
    if (awaiting.length)
      throw DomainError.conflict(
        'evidence_awaiting_upload',
        `Evidence without its file yet cannot be downloaded: ${awaiting.slice(0, 10).join(', ')}${awaiting.length > 10 ? ', ...' : ''}`,
        [],
        { awaiting },
      );
    const now = this.d.clock.now();
    const expiresAt = new Date(now.getTime() + SIGNED_URL_SECONDS * 1000);
    const bundle = {
      id: newId('bdl', now.getTime()),
      tenantId: actor.tenantId,
      evidenceIds: unique,
      createdBy: actor.id,
      createdAt: now.toISOString(),
      expiresAt: expiresAt.toISOString(),
    };
    await this.d.uow.run(async (tx) => {
      await tx.evidenceBundles.insert(bundle);
      await recordChange(tx, actor, now, {
        action: 'evidence.bulk_download_url_issued',
        resourceType: 'evidence_bundle',
        resourceId: bundle.id,
        learnerId: oneLearner(found),
        details: { count: unique.length, ip },
      });
    });
    const token = this.d.signer.sign(`${actor.tenantId}|${bundle.id}|${expiresAt.getTime()}`, BUNDLE);
    const size = storedZipSize(found.map((e) => ({ name: bundleEntryName(e), size: e.current.size })));
    return {
      url: `${this.d.settings.publicUrl}/api/v1/files/bundles/${token}`,
      expiresAt: bundle.expiresAt,
      filename: `evidence-${now.toISOString().slice(0, 10)}.zip`,
      contentType: 'application/zip',
      size,
      count: unique.length,
    };
  }
}
