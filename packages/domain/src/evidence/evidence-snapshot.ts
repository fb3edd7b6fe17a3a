import type { EvidenceType } from './evidence-fields.js';

export const EVIDENCE_STATUSES = ['submitted', 'approved', 'rejected', 'revision_requested'] as const;
export type EvidenceStatus = (typeof EVIDENCE_STATUSES)[number];
/**
 * A record made before its file (an `evidence` import): no stored version yet, size 0. Its file comes through
 * `POST /evidence/{id}/upload` and makes version 1, `submitted` (docs/api.md, "Evidence").
 */
export const AWAITING_UPLOAD = 'awaiting_upload';
/** The status a record shows: its current version's, or `awaiting_upload` before its first file. */
export const EVIDENCE_RECORD_STATUSES = [...EVIDENCE_STATUSES, AWAITING_UPLOAD] as const;
export type EvidenceRecordStatus = (typeof EVIDENCE_RECORD_STATUSES)[number];
export const REVIEW_OUTCOMES = ['approved', 'rejected', 'revision_requested'] as const;
export type ReviewOutcome = (typeof REVIEW_OUTCOMES)[number];

/** Deleted evidence can be restored for this long; then its bytes are purged. */
export const EVIDENCE_RESTORE_DAYS = 30;
/** Evidence is kept this many years after its enrolment's completion unless the tenant sets otherwise. */
export const DEFAULT_RETENTION_YEARS = 7;
/** How long a signed download or upload URL lives. */
export const SIGNED_URL_SECONDS = 3600;

/** One version of a piece of evidence: its file and its own review. */
export interface EvidenceVersionSnapshot {
  tenantId: string;
  evidenceId: string;
  version: number;
  filename: string;
  /** Sniffed from the bytes, never taken from the name or the client's header. */
  contentType: string;
  size: number;
  sha256: string;
  /** Where the (encrypted) bytes are in the file store; '' while the record awaits its file. */
  storageKey: string;
  uploadedBy: string;
  createdAt: string;
  /** `awaiting_upload` only in the stand-in `current` of a record without a file (version 0, never stored). */
  status: EvidenceRecordStatus;
  reviewedAt: string | null;
  reviewedBy: string | null;
  feedback: string | null;
}

/** A piece of evidence for a learner's module, with its current (latest) version. */
export interface EvidenceSnapshot {
  id: string;
  tenantId: string;
  learnerId: string;
  enrolmentId: string;
  /** The module code. */
  moduleId: string;
  evidenceType: EvidenceType;
  createdAt: string;
  updatedAt: string;
  /** Set when deleted (restorable for 30 days); null otherwise. */
  deletedAt: string | null;
  /** What the evidence is about, as given when the record was made (imports); null when not given. */
  description: string | null;
  /**
   * The current version; for a record awaiting its file, a stand-in made by `Evidence.awaitingVersion` (version 0,
   * size 0, no storage key, `awaiting_upload`).
   */
  current: EvidenceVersionSnapshot;
}

export interface EvidenceFilter {
  learnerId?: string;
  moduleId?: string;
  enrolmentId?: string;
  /** Records awaiting their file are listed only when asked for with `awaiting_upload`. */
  status?: EvidenceRecordStatus;
  evidenceType?: EvidenceType;
  /** Inclusive bounds on `createdAt`, ISO 8601. */
  from?: string;
  to?: string;
}
