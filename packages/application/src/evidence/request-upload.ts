import { DomainError, newId } from '@fundi/domain';
import { Evidence, type EvidenceSnapshot } from '@fundi/domain/evidence';
import type { Actor } from '../common/actor.js';
import { locateUpload, type UploadRequest } from './evidence-location.js';
import type { EvidencePorts } from './evidence-ports.js';
import { issueUploadUrl, parseSize, type UploadGrant } from './evidence-upload-tickets.js';

/** Form A: declares an upload and answers a signed, single-use URL to PUT the bytes to. */
export class RequestUpload {
  constructor(private readonly d: EvidencePorts) {}

  async execute(actor: Actor, input: UploadRequest, evidenceId?: string): Promise<UploadGrant> {
    const now = this.d.clock.now();
    const errors: { field: string; message: string }[] = [];
    let size = 0;
    try {
      size = parseSize(input.size);
    } catch (e) {
      errors.push(...(e as DomainError).details);
    }
    let prev: EvidenceSnapshot | null = null;
    if (evidenceId) {
      prev = await this.d.repos.evidence.findById(actor.tenantId, evidenceId);
      if (!prev) throw DomainError.notFound('evidence', evidenceId);
      Evidence.assertAcceptsVersion(prev);
    }
    let parsed: ReturnType<typeof Evidence.parseUpload> | null = null;
    try {
      parsed = Evidence.parseUpload({
        evidenceType: prev ? prev.evidenceType : input.evidenceType,
        filename: input.filename,
      });
    } catch (e) {
      errors.push(...(e as DomainError).details);
    }
    if (errors.length || !parsed) throw DomainError.invalidMany(errors);
    const where = prev ?? (await locateUpload(this.d.repos, actor, input));
    return issueUploadUrl(this.d, actor, now, {
      evidenceId: prev?.id ?? newId('evd', now.getTime()),
      version: prev ? prev.current.version + 1 : 1,
      learnerId: where.learnerId,
      enrolmentId: where.enrolmentId,
      moduleId: where.moduleId,
      evidenceType: parsed.evidenceType,
      filename: parsed.filename,
      size,
    });
  }
}
