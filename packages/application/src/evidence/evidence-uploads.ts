import type { Readable } from 'node:stream';
import { DomainError, newId } from '@fundi/domain';
import { Evidence, type EvidenceSnapshot } from '@fundi/domain/evidence';
import type { Actor } from '../common/actor.js';
import { UploadFields } from '../common/upload-fields.js';
import { locateUpload, type UploadRequest } from './evidence-location.js';
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

  /**
   * Form B: multipart upload of a new piece of evidence. Fields sent before the file are checked before it is
   * stored; fields sent after it are checked once the body has ended, and a refusal then removes the stored bytes.
   */
  async upload(
    actor: Actor,
    fields: UploadRequest | UploadFields<UploadRequest>,
    file: { stream: Readable; filename: string | null },
    ip: string | null = null,
  ): Promise<EvidenceView> {
    const id = newId('evd', this.d.clock.now().getTime());
    const key = evidenceKey(actor.tenantId, id, 1);
    const { checked, stored } = await UploadFields.of(fields).checkAround({
      check: async (input) => {
        const parsed = Evidence.parseUpload({
          evidenceType: input.evidenceType,
          filename: input.filename ?? file.filename ?? undefined,
        });
        return { parsed, where: await locateUpload(this.d.repos, actor, input) };
      },
      abandon: () => file.stream.destroy(),
      store: () => storeWithinQuota(this.d, actor.tenantId, key, file.stream),
      undo: () => this.d.files.remove(key),
    });
    const { parsed, where } = checked;
    return commitUpload(this.d, actor, uploadSnapshot(this.d, actor, where, id, 1, parsed, stored, key), 'new', ip);
  }

  /** A new version of evidence whose revision was requested (multipart, both forms; `filename` in any order). */
  async uploadVersion(
    actor: Actor,
    id: string,
    file: { stream: Readable; filename: string | null },
    fields: VersionFields | UploadFields<VersionFields> = {},
    ip: string | null = null,
  ): Promise<EvidenceView> {
    let prev: EvidenceSnapshot;
    try {
      const found = await this.d.repos.evidence.findById(actor.tenantId, id);
      if (!found) throw DomainError.notFound('evidence', id);
      Evidence.assertAcceptsVersion(found);
      prev = found;
    } catch (e) {
      file.stream.destroy();
      throw e;
    }
    const version = prev.current.version + 1;
    const key = evidenceKey(actor.tenantId, id, version);
    const { checked: parsedName, stored } = await UploadFields.of(fields).checkAround({
      check: (input) =>
        Evidence.parseUpload({
          evidenceType: prev.evidenceType,
          filename: input.filename ?? file.filename ?? undefined,
        }).filename,
      abandon: () => file.stream.destroy(),
      store: () => storeWithinQuota(this.d, actor.tenantId, key, file.stream),
      undo: () => this.d.files.remove(key),
    });
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

/** The text fields of a version upload. */
export interface VersionFields {
  filename?: unknown;
}
