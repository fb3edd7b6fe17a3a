import { DomainError } from '@fundi/domain';
import { systemActor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { ExportPorts } from './export-ports.js';
import { DOWNLOAD, assertDownloadable } from './export-links.js';

const invalidUrl = () =>
  new DomainError(
    'forbidden',
    'signed_url_invalid',
    'The signed URL is not valid: it was altered or is not for this tenant',
  );
const expiredUrl = () =>
  new DomainError('forbidden', 'signed_url_expired', 'The signed URL has expired: ask for a new one');

/** Opens a signed download URL: checks signature, tenant and expiry, audits the download. */
export class OpenExportDownload {
  constructor(private readonly d: ExportPorts) {}

  async execute(token: string, tenantSlug: string | null) {
    const payload = this.d.signer.verify(token, DOWNLOAD);
    if (!payload) throw invalidUrl();
    const [tenantId, id, exp] = payload.split('|');
    if (!tenantId || !id || !exp) throw invalidUrl();
    if (tenantSlug !== null && (await this.d.repos.tenants.findById(tenantId))?.slug !== tenantSlug) throw invalidUrl();
    const now = this.d.clock.now();
    if (now.getTime() > Number(exp)) throw expiredUrl();
    const e = await this.d.repos.exports.findById(tenantId, id);
    if (!e) throw DomainError.notFound('export', id);
    assertDownloadable(e);
    await this.d.uow.run((tx) =>
      recordChange(tx, { ...systemActor(tenantId), id: 'signed-url' }, now, {
        action: 'export.downloaded',
        resourceType: 'export',
        resourceId: id,
      }),
    );
    return {
      contentType: e.contentType!,
      size: e.size!,
      filename: e.fileName!,
      // A strong validator of the bytes, as `size` is: the file is written before its record is marked ready, a run
      // that finds the export ready writes nothing, and the record's completion time names the run that wrote it.
      etag: `${e.id}-${Date.parse(e.completedAt!).toString(36)}`,
      open: (range?: { start: number; end: number }) => this.d.files.open(e.storageKey!, range),
    };
  }
}
