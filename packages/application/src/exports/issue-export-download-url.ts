import { DomainError } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { ExportPorts } from './export-ports.js';
import type { ExportDownload } from './export-view.js';
import { assertDownloadable, signedDownload } from './export-links.js';

/** A signed URL (3600 s) to a ready export's file; issuing it is audited. 409 while not ready or once purged. */
export class IssueExportDownloadUrl {
  constructor(private readonly d: ExportPorts) {}

  async execute(actor: Actor, id: string): Promise<ExportDownload> {
    const e = await this.d.repos.exports.findById(actor.tenantId, id);
    if (!e) throw DomainError.notFound('export', id);
    assertDownloadable(e);
    const now = this.d.clock.now();
    const { downloadUrl, expiresAt } = signedDownload(this.d, e, now);
    await this.d.uow.run((tx) =>
      recordChange(tx, actor, now, { action: 'export.download_url_issued', resourceType: 'export', resourceId: id }),
    );
    return { url: downloadUrl, expiresAt, filename: e.fileName!, contentType: e.contentType!, size: e.size! };
  }
}
