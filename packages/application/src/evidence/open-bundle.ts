import type { Readable } from 'node:stream';
import { invalidUrl } from '../files/signed-url-errors.js';
import { checkSignedUrl } from './evidence-signed-urls.js';
import type { EvidencePorts } from './evidence-ports.js';
import { BUNDLE, auditSignedDownload, bundleEntryName, oneLearner } from './evidence-downloads.js';

/** Opens a signed bundle URL: the evidence still there, in id order, as ZIP entries to stream. */
export class OpenBundle {
  constructor(private readonly d: EvidencePorts) {}

  async execute(
    token: string,
    tenantSlug: string | null,
    ip: string | null,
  ): Promise<{ filename: string; entries: { name: string; open(): Promise<Readable> }[] }> {
    const { fields, now } = await checkSignedUrl(this.d, token, BUNDLE, tenantSlug, 3);
    const [tenantId, id] = fields as [string, string];
    const bundle = await this.d.repos.evidenceBundles.findById(tenantId, id);
    if (!bundle) throw invalidUrl();
    const found = await this.d.repos.evidence.findByIds(tenantId, bundle.evidenceIds);
    await auditSignedDownload(this.d, tenantId, now, ip, {
      action: 'evidence.bulk_downloaded',
      resourceType: 'evidence_bundle',
      resourceId: id,
      learnerId: oneLearner(found),
      details: { count: found.length, ip },
    });
    return {
      filename: `evidence-${bundle.createdAt.slice(0, 10)}.zip`,
      entries: found.map((e) => ({
        name: bundleEntryName(e),
        open: () => this.d.files.open(e.current.storageKey),
      })),
    };
  }
}
