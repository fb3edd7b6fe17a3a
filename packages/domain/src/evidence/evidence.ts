import { DomainError, type ErrorDetail } from '../common/errors.js';
import { awaitingUpload } from './evidence-awaiting.js';
import { type EvidenceType, parseEvidenceType, parseFilename } from './evidence-fields.js';
import { type EvidenceSnapshot, REVIEW_OUTCOMES, type ReviewOutcome } from './evidence-snapshot.js';

export interface ReviewInput {
  status?: unknown;
  feedback?: unknown;
}

/**
 * A piece of evidence's rules: records awaiting their file (`awaitingUpload`), what an upload declares, a review of
 * the current version, and when a new version is accepted.
 */
export const Evidence = {
  ...awaitingUpload,

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
