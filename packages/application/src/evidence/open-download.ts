import { DomainError } from '@fundi/domain';
import { checkSignedUrl } from './evidence-signed-urls.js';
import type { EvidencePorts } from './evidence-ports.js';
import { DOWNLOAD, type EvidenceFileAnswer, auditSignedDownload } from './evidence-downloads.js';

/** Opens a signed download URL: checks signature, tenant and expiry, audits the download, streams the bytes. */
export class OpenDownload {
  constructor(private readonly d: EvidencePorts) {}

  async execute(token: string, tenantSlug: string | null, ip: string | null): Promise<EvidenceFileAnswer> {
    const { fields, now } = await checkSignedUrl(this.d, token, DOWNLOAD, tenantSlug, 4);
    const [tenantId, id, version] = fields as [string, string, string];
    const versions = await this.d.repos.evidence.versions(tenantId, id);
    const v = versions.find((x) => x.version === Number(version));
    const e = v ? await this.d.repos.evidence.findById(tenantId, id) : null;
    if (!v || !e) throw DomainError.notFound('evidence', id);
    await auditSignedDownload(this.d, tenantId, now, ip, {
      action: 'evidence.downloaded',
      resourceType: 'evidence',
      resourceId: id,
      learnerId: e.learnerId,
      details: { version: v.version, ip },
    });
    return {
      contentType: v.contentType,
      size: v.size,
      filename: v.filename,
      etag: `${v.sha256.slice(0, 32)}-v${v.version}`,
      open: (range) => this.d.files.open(v.storageKey, range),
    };
  }
}
