import { DomainError, type ErrorDetail } from '../shared/errors.js';

/** What a piece of evidence is; documented in docs/api.md, "Evidence". */
export const EVIDENCE_TYPES = [
  'portfolio',
  'assignment',
  'logbook',
  'observation',
  'workplace_evidence',
  'certificate',
  'identity_document',
  'other',
] as const;
export type EvidenceType = (typeof EVIDENCE_TYPES)[number];

export const EVIDENCE_STATUSES = ['submitted', 'approved', 'rejected', 'revision_requested'] as const;
export type EvidenceStatus = (typeof EVIDENCE_STATUSES)[number];
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
  /** Where the (encrypted) bytes are in the file store. */
  storageKey: string;
  uploadedBy: string;
  createdAt: string;
  status: EvidenceStatus;
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
  current: EvidenceVersionSnapshot;
}

export interface EvidenceFilter {
  learnerId?: string;
  moduleId?: string;
  enrolmentId?: string;
  status?: EvidenceStatus;
  evidenceType?: EvidenceType;
  /** Inclusive bounds on `createdAt`, ISO 8601. */
  from?: string;
  to?: string;
}

const MAX_FILENAME = 255;

/** A file name as given by the client, kept for display and downloads: no path, no control characters. */
export function parseFilename(value: unknown, field = 'filename'): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw DomainError.invalid(field, 'must be a non-empty file name');
  const base = value.replace(/^.*[\\/]/, '').trim();
  if (base === '' || base === '.' || base === '..') throw DomainError.invalid(field, 'must be a file name, not a path');
  if (base.length > MAX_FILENAME) throw DomainError.invalid(field, `must be at most ${MAX_FILENAME} characters`);
  return base;
}

export function parseEvidenceType(value: unknown, field = 'evidenceType'): EvidenceType {
  if (typeof value !== 'string' || !(EVIDENCE_TYPES as readonly string[]).includes(value)) {
    throw DomainError.invalid(field, `must be one of ${EVIDENCE_TYPES.join(', ')}`);
  }
  return value as EvidenceType;
}

export interface ReviewInput {
  status?: unknown;
  feedback?: unknown;
}

export const Evidence = {
  /** Checks what an upload declares before a byte is stored. */
  parseUpload(input: { evidenceType?: unknown; filename?: unknown }): { evidenceType: EvidenceType; filename: string } {
    const errors: ErrorDetail[] = [];
    let evidenceType: EvidenceType | undefined;
    let filename: string | undefined;
    try {
      evidenceType = parseEvidenceType(input.evidenceType);
    } catch (e) {
      errors.push(...(e as DomainError).details);
    }
    try {
      filename = parseFilename(input.filename);
    } catch (e) {
      errors.push(...(e as DomainError).details);
    }
    if (errors.length || !evidenceType || !filename) throw DomainError.invalidMany(errors);
    return { evidenceType, filename };
  },

  /**
   * A review of the current version: `submitted` moves to `approved`, `rejected` or `revision_requested`. A
   * version is reviewed once; `revision_requested` waits for a new version, which is `submitted` again.
   */
  review(e: EvidenceSnapshot, input: ReviewInput, ctx: { by: string; now: Date }): EvidenceSnapshot {
    const errors: ErrorDetail[] = [];
    const status = input.status;
    if (typeof status !== 'string' || !(REVIEW_OUTCOMES as readonly string[]).includes(status)) {
      errors.push({ field: 'status', message: `must be one of ${REVIEW_OUTCOMES.join(', ')}` });
    }
    let feedback: string | null = null;
    if (input.feedback !== undefined && input.feedback !== null) {
      if (typeof input.feedback !== 'string' || input.feedback.length > 5000)
        errors.push({ field: 'feedback', message: 'must be text of at most 5000 characters' });
      else feedback = input.feedback.trim() || null;
    }
    if (status === 'revision_requested' && !feedback)
      errors.push({ field: 'feedback', message: 'is required when a revision is requested' });
    if (errors.length) throw DomainError.invalidMany(errors);
    if (e.current.status !== 'submitted') {
      throw DomainError.conflict(
        'evidence_already_reviewed',
        `Version ${e.current.version} was already reviewed (${e.current.status}); a new version can be reviewed`,
        [],
        { currentStatus: e.current.status, version: e.current.version },
      );
    }
    const at = ctx.now.toISOString();
    return {
      ...e,
      updatedAt: at,
      current: { ...e.current, status: status as ReviewOutcome, reviewedAt: at, reviewedBy: ctx.by, feedback },
    };
  },

  /** Whether a new version may be uploaded: only after a revision was requested. */
  assertAcceptsVersion(e: EvidenceSnapshot): void {
    if (e.current.status !== 'revision_requested') {
      throw DomainError.conflict(
        'revision_not_requested',
        `A new version is accepted only after a revision was requested (status: ${e.current.status})`,
        [],
        { currentStatus: e.current.status },
      );
    }
  },
};
