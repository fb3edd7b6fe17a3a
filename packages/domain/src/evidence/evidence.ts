import { DomainError, type ErrorDetail } from '../common/errors.js';
import { UNSAFE_FILE_NAME_MESSAGE, isSafeFileName } from '../common/text.js';

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

const MAX_FILENAME = 255;

/**
 * A file name as given by the client, kept for display and downloads: no path, and the text rule with no line break
 * or tab either (docs/api.md, "Text").
 */
export function parseFilename(value: unknown, field = 'filename'): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw DomainError.invalid(field, 'must be a non-empty file name');
  if (!isSafeFileName(value)) throw DomainError.invalid(field, UNSAFE_FILE_NAME_MESSAGE, 'unsafe_text');
  const base = value.replace(/^.*[\\/]/, '').trim();
  if (base === '' || base === '.' || base === '..') throw DomainError.invalid(field, 'must be a file name, not a path');
  if (base.length > MAX_FILENAME) throw DomainError.invalid(field, `must be at most ${MAX_FILENAME} characters`);
  return base;
}

/**
 * A file name as two pieces of evidence are compared by it (an `evidence` import's duplicates): lower-cased by
 * JavaScript's Unicode rules (not full case folding: `ß` stays apart from `SS`), in code, so that every store
 * compares alike (SQLite's `lower()` folds ASCII only).
 */
export const foldFilename = (filename: string): string => filename.toLowerCase();

const MAX_DESCRIPTION = 2000;

/** An optional description: trimmed text of at most 2,000 characters; empty is "not given" (null). */
export function parseDescription(value: unknown, field = 'description'): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw DomainError.invalid(field, 'must be text');
  const text = value.trim();
  if (text.length > MAX_DESCRIPTION) throw DomainError.invalid(field, `must be at most ${MAX_DESCRIPTION} characters`);
  return text === '' ? null : text;
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

const awaitingConflict = (e: EvidenceSnapshot, what: string) =>
  DomainError.conflict(
    'evidence_awaiting_upload',
    `This evidence has no file yet, so it cannot be ${what}: upload it through POST /evidence/{id}/upload`,
    [],
    { currentStatus: AWAITING_UPLOAD, evidenceId: e.id },
  );

export const Evidence = {
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
      current: Evidence.awaitingVersion(base, input.filename, input.createdBy),
    };
  },

  /** Refuses what needs a stored file (review, downloads) on a record awaiting its file: 409. */
  assertHasFile(e: EvidenceSnapshot, what: string): void {
    if (Evidence.isAwaitingUpload(e)) throw awaitingConflict(e, what);
  },

  /** Only a record awaiting its file takes a first upload through `POST /evidence/{id}/upload`. */
  assertAwaitingUpload(e: EvidenceSnapshot): void {
    if (!Evidence.isAwaitingUpload(e))
      throw DomainError.conflict(
        'evidence_not_awaiting_upload',
        `This evidence has its file already (version ${e.current.version}, ${e.current.status}); new versions follow a requested revision`,
        [],
        { currentStatus: e.current.status },
      );
  },

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
    if (errors.length) throw DomainError.invalidMany(errors);
    Evidence.assertHasFile(e, 'reviewed');
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
    Evidence.assertHasFile(e, 'given a new version');
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
