import { DomainError } from '@fundi/domain';
import { Evidence, SIGNED_URL_SECONDS } from '@fundi/domain/evidence';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { EvidencePorts } from './evidence-ports.js';
import { DOWNLOAD, type DownloadGrant } from './evidence-downloads.js';

/** A signed URL (3600 s) to the current version's bytes; issuing it is audited. */
export class IssueDownloadUrl {
  constructor(private readonly d: EvidencePorts) {}

  async execute(actor: Actor, id: string, ip: string | null): Promise<DownloadGrant> {
    const now = this.d.clock.now();
    const e = await this.d.repos.evidence.findById(actor.tenantId, id);
    if (!e) throw DomainError.notFound('evidence', id);
    Evidence.assertHasFile(e, 'downloaded');
    const expiresAt = new Date(now.getTime() + SIGNED_URL_SECONDS * 1000);
    const token = this.d.signer.sign(`${e.tenantId}|${e.id}|${e.current.version}|${expiresAt.getTime()}`, DOWNLOAD);
    await this.d.uow.run((tx) =>
      recordChange(tx, actor, now, {
        action: 'evidence.download_url_issued',
        resourceType: 'evidence',
        resourceId: id,
        learnerId: e.learnerId,
        details: { version: e.current.version, ip },
      }),
    );
    return {
      url: `${this.d.settings.publicUrl}/api/v1/files/evidence/${token}`,
      expiresAt: expiresAt.toISOString(),
      filename: e.current.filename,
      contentType: e.current.contentType,
      size: e.current.size,
    };
  }
}
