import type { EvidenceSnapshot, EvidenceStatus, EvidenceType, EvidenceVersionSnapshot } from '@fundi/domain/evidence';

export interface EvidenceView {
  id: string;
  learnerId: string;
  moduleId: string;
  enrolmentId: string;
  evidenceType: EvidenceType;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  status: EvidenceVersionSnapshot['status'];
  version: number;
  description: string | null;
  uploadedBy: string;
  createdAt: string;
  updatedAt: string;
  reviewedAt: string | null;
  reviewedBy: string | null;
  feedback: string | null;
  deletedAt: string | null;
}

export interface EvidenceVersionView {
  version: number;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  status: EvidenceStatus;
  uploadedBy: string;
  createdAt: string;
  reviewedAt: string | null;
  reviewedBy: string | null;
  feedback: string | null;
}

export function evidenceView(e: EvidenceSnapshot): EvidenceView {
  const v = e.current;
  return {
    id: e.id,
    learnerId: e.learnerId,
    moduleId: e.moduleId,
    enrolmentId: e.enrolmentId,
    evidenceType: e.evidenceType,
    filename: v.filename,
    contentType: v.contentType,
    size: v.size,
    sha256: v.sha256,
    status: v.status,
    version: v.version,
    description: e.description,
    uploadedBy: v.uploadedBy,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
    reviewedAt: v.reviewedAt,
    reviewedBy: v.reviewedBy,
    feedback: v.feedback,
    deletedAt: e.deletedAt,
  };
}

export function versionView(v: EvidenceVersionSnapshot): EvidenceVersionView {
  return {
    version: v.version,
    filename: v.filename,
    contentType: v.contentType,
    size: v.size,
    sha256: v.sha256,
    // Stored versions are never `awaiting_upload` (that is the stand-in of a record without a file).
    status: v.status as EvidenceStatus,
    uploadedBy: v.uploadedBy,
    createdAt: v.createdAt,
    reviewedAt: v.reviewedAt,
    reviewedBy: v.reviewedBy,
    feedback: v.feedback,
  };
}

/** Where a version's encrypted bytes live in the file store. */
export function evidenceKey(tenantId: string, evidenceId: string, version: number): string {
  return `t/${tenantId}/evidence/${evidenceId}/v${version}`;
}
