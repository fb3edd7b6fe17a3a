import { DomainError } from '../common/errors.js';
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
