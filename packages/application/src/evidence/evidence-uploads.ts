import type { Readable } from 'node:stream';
import { DomainError, Evidence, newId, type EvidenceSnapshot } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import { locateUpload, type UploadPlace, type UploadRequest } from './evidence-location.js';
import type { EvidencePorts } from './evidence-ports.js';
import { storeWithinQuota } from './evidence-quota.js';
import { commitUpload, uploadSnapshot } from './evidence-store.js';
import { evidenceKey, type EvidenceView } from './evidence-view.js';

/**
 * Multipart uploads (docs/api.md, "Evidence"): the bytes come with the request, are stored within the tenant's
 * quota, and are committed with `evidence.uploaded`; a failed commit removes the stored bytes again.
 */
export class EvidenceUploads {
  constructor(private readonly d: EvidencePorts) {}

  /** Form B: multipart upload of a new piece of evidence. */
  async upload(
    actor: Actor,
    fields: UploadRequest,
    file: { stream: Readable; filename: string | null },
    ip: string | null = null,
  ): Promise<EvidenceView> {
    let parsed: ReturnType<typeof Evidence.parseUpload>;
    let where: UploadPlace;
    try {
      parsed = Evidence.parseUpload({
        evidenceType: fields.evidenceType,
        filename: fields.filename ?? file.filename ?? undefined,
      });
      where = await locateUpload(this.d.repos, actor, fields);
    } catch (e) {
      file.stream.destroy();
      throw e;
    }
    const id = newId('evd', this.d.clock.now().getTime());
    const key = evidenceKey(actor.tenantId, id, 1);
    const stored = await storeWithinQuota(this.d, actor.tenantId, key, file.stream);
    return commitUpload(this.d, actor, uploadSnapshot(this.d, actor, where, id, 1, parsed, stored, key), 'new', ip);
  }

  /** A new version of evidence whose revision was requested (multipart, both forms). */
  async uploadVersion(
    actor: Actor,
    id: string,
    file: { stream: Readable; filename: string | null },
    filename?: unknown,
    ip: string | null = null,
  ): Promise<EvidenceView> {
    let prev: EvidenceSnapshot;
    let parsedName: string;
    try {
      const found = await this.d.repos.evidence.findById(actor.tenantId, id);
      if (!found) throw DomainError.notFound('evidence', id);
      Evidence.assertAcceptsVersion(found);
      prev = found;
      parsedName = Evidence.parseUpload({
        evidenceType: found.evidenceType,
        filename: filename ?? file.filename ?? undefined,
      }).filename;
    } catch (e) {
      file.stream.destroy();
      throw e;
    }
    const version = prev.current.version + 1;
    const key = evidenceKey(actor.tenantId, id, version);
    const stored = await storeWithinQuota(this.d, actor.tenantId, key, file.stream);
    return commitUpload(
      this.d,
      actor,
      uploadSnapshot(
        this.d,
        actor,
        prev,
        id,
        version,
        { evidenceType: prev.evidenceType, filename: parsedName },
        stored,
        key,
        prev,
      ),
      'version',
      ip,
    );
  }
}
