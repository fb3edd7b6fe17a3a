import { DomainError } from '@fundi/domain';
import { Evidence, type EvidenceSnapshot, type EvidenceVersionSnapshot } from '@fundi/domain/evidence';

// Row mapping and statements shared by the evidence repositories (sql-evidence.ts, sql-upload-tickets.ts,
// sql-evidence-settings.ts).

/** A database row as the driver returns it. */
export type Row = Record<string, unknown>;
/** A nullable text column. */
export const s = (v: unknown) => (v ?? null) as string | null;

// LEFT JOIN: a record awaiting its file (version 0) has no version row.
export const SELECT = `SELECT e.id, e.tenant_id, e.learner_id, e.enrolment_id, e.module_id, e.evidence_type, e.created_at, e.updated_at,
  e.deleted_at, e.description, e.awaiting_filename, e.created_by AS e_created_by, v.version, v.filename, v.content_type, v.size,
  v.sha256, v.storage_key, v.uploaded_by, v.created_at AS v_created_at, v.status, v.reviewed_at, v.reviewed_by, v.feedback
  FROM evidence e LEFT JOIN evidence_versions v ON v.evidence_id = e.id AND v.version = e.version`;

export function rowToVersion(r: Row, createdAt: string): EvidenceVersionSnapshot {
  return {
    tenantId: r.tenant_id as string,
    evidenceId: (r.evidence_id ?? r.id) as string,
    version: Number(r.version),
    filename: r.filename as string,
    contentType: r.content_type as string,
    size: Number(r.size),
    sha256: r.sha256 as string,
    storageKey: r.storage_key as string,
    uploadedBy: r.uploaded_by as string,
    createdAt,
    status: r.status as EvidenceVersionSnapshot['status'],
    reviewedAt: s(r.reviewed_at),
    reviewedBy: s(r.reviewed_by),
    feedback: s(r.feedback),
  };
}

export function rowToEvidence(r: Row): EvidenceSnapshot {
  const base = { id: r.id as string, tenantId: r.tenant_id as string, createdAt: r.created_at as string };
  return {
    id: r.id as string,
    tenantId: r.tenant_id as string,
    learnerId: r.learner_id as string,
    enrolmentId: r.enrolment_id as string,
    moduleId: r.module_id as string,
    evidenceType: r.evidence_type as EvidenceSnapshot['evidenceType'],
    createdAt: r.created_at as string,
    updatedAt: r.updated_at as string,
    deletedAt: s(r.deleted_at),
    description: s(r.description),
    current:
      r.filename === null || r.filename === undefined
        ? Evidence.awaitingVersion(base, r.awaiting_filename as string, r.e_created_by as string)
        : rowToVersion(r, r.v_created_at as string),
  };
}

export const INSERT_EVIDENCE = `INSERT INTO evidence (id, tenant_id, learner_id, enrolment_id, module_id, evidence_type, version, created_at,
  updated_at, deleted_at, description, awaiting_filename, created_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
export const INSERT_VERSION = `INSERT INTO evidence_versions (evidence_id, version, tenant_id, filename, content_type, size, sha256, storage_key,
  uploaded_by, created_at, status, reviewed_at, reviewed_by, feedback) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

export function versionValues(v: EvidenceVersionSnapshot) {
  return [
    v.evidenceId,
    v.version,
    v.tenantId,
    v.filename,
    v.contentType,
    v.size,
    v.sha256,
    v.storageKey,
    v.uploadedBy,
    v.createdAt,
    v.status,
    v.reviewedAt,
    v.reviewedBy,
    v.feedback,
  ];
}

export const DUPLICATE_VERSION = [
  { column: 'version', error: () => DomainError.conflict('duplicate_version', 'This version exists already') },
];
