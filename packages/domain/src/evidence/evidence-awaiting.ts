import { DomainError } from '../common/errors.js';
import type { EvidenceType } from './evidence-fields.js';
import { AWAITING_UPLOAD, type EvidenceSnapshot, type EvidenceVersionSnapshot } from './evidence-snapshot.js';

const awaitingConflict = (e: EvidenceSnapshot, what: string) =>
  DomainError.conflict(
    'evidence_awaiting_upload',
    `This evidence has no file yet, so it cannot be ${what}: upload it through POST /evidence/{id}/upload`,
    [],
    { currentStatus: AWAITING_UPLOAD, evidenceId: e.id },
  );

/**
 * Evidence recorded before its file (an `evidence` import's rows): version 0, `awaiting_upload`, until its first
 * upload; what needs a stored file is refused meanwhile.
 */
export const awaitingUpload = {
  /** Whether the record still waits for its first file. */
  isAwaitingUpload(e: EvidenceSnapshot): boolean {
    return e.current.status === AWAITING_UPLOAD;
  },

  /** The stand-in current version of a record without a file (storage keeps only the record). */
  awaitingVersion(
    e: { id: string; tenantId: string; createdAt: string },
    filename: string,
    createdBy: string,
  ): EvidenceVersionSnapshot {
    return {
      tenantId: e.tenantId,
      evidenceId: e.id,
      version: 0,
      filename,
      contentType: '',
      size: 0,
      sha256: '',
      storageKey: '',
      uploadedBy: createdBy,
      createdAt: e.createdAt,
      status: AWAITING_UPLOAD,
      reviewedAt: null,
      reviewedBy: null,
      feedback: null,
    };
  },

  /** A record whose file is uploaded later (an `evidence` import row): version 0, `awaiting_upload`. */
  awaiting(input: {
    id: string;
    tenantId: string;
    learnerId: string;
    enrolmentId: string;
    moduleId: string;
    evidenceType: EvidenceType;
    filename: string;
    description: string | null;
    createdBy: string;
    now: Date;
  }): EvidenceSnapshot {
    const at = input.now.toISOString();
    const base = { id: input.id, tenantId: input.tenantId, createdAt: at };
    return {
      ...base,
      learnerId: input.learnerId,
      enrolmentId: input.enrolmentId,
      moduleId: input.moduleId,
      evidenceType: input.evidenceType,
      updatedAt: at,
      deletedAt: null,
      description: input.description,
      current: awaitingUpload.awaitingVersion(base, input.filename, input.createdBy),
    };
  },

  /** Refuses what needs a stored file (review, downloads) on a record awaiting its file: 409. */
  assertHasFile(e: EvidenceSnapshot, what: string): void {
    if (awaitingUpload.isAwaitingUpload(e)) throw awaitingConflict(e, what);
  },

  /** Only a record awaiting its file takes a first upload through `POST /evidence/{id}/upload`. */
  assertAwaitingUpload(e: EvidenceSnapshot): void {
    if (!awaitingUpload.isAwaitingUpload(e))
      throw DomainError.conflict(
        'evidence_not_awaiting_upload',
        `This evidence has its file already (version ${e.current.version}, ${e.current.status}); new versions follow a requested revision`,
        [],
        { currentStatus: e.current.status },
      );
  },
};
