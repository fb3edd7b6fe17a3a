import { DomainError } from '@fundi/domain';
import { Evidence } from '@fundi/domain/evidence';
import type { Actor } from '../common/actor.js';
import type { EvidencePorts } from './evidence-ports.js';
import { issueUploadUrl, parseSize } from './evidence-upload-tickets.js';

/**
 * The upload URL of a record awaiting its file (made by an `evidence` import): the same grant as
 * `requestUpload`, for version 1 of this record; the PUT makes it `submitted`. The file name defaults to the
 * record's.
 */
export class RequestAwaitedUpload {
  constructor(private readonly d: EvidencePorts) {}

  async execute(actor: Actor, id: string, input: { size?: unknown; filename?: unknown }) {
    const now = this.d.clock.now();
    const e = await this.d.repos.evidence.findById(actor.tenantId, id);
    if (!e) throw DomainError.notFound('evidence', id);
    const errors: { field: string; message: string }[] = [];
    let size = 0;
    let filename = e.current.filename;
    try {
      size = parseSize(input.size);
    } catch (err) {
      errors.push(...(err as DomainError).details);
    }
    try {
      if (input.filename !== undefined)
        filename = Evidence.parseUpload({ evidenceType: e.evidenceType, filename: input.filename }).filename;
    } catch (err) {
      errors.push(...(err as DomainError).details);
    }
    if (errors.length) throw DomainError.invalidMany(errors);
    Evidence.assertAwaitingUpload(e);
    return issueUploadUrl(this.d, actor, now, {
      evidenceId: e.id,
      version: 1,
      learnerId: e.learnerId,
      enrolmentId: e.enrolmentId,
      moduleId: e.moduleId,
      evidenceType: e.evidenceType,
      filename,
      size,
    });
  }
}
