import type { Page, PageRequest } from '@fundi/domain';
import { AWAITING_UPLOAD, type EvidenceFilter, type EvidenceSnapshot } from '@fundi/domain/evidence';
import type { Knex } from 'knex';
import type { SqlDb } from '../db/sql-db.js';
import { pageQuery } from '../db/paging.js';
import { rowToEvidence } from './evidence-rows.js';

/** A page of a tenant's evidence records as filtered, each with its current version. */
export function listEvidence(
  db: SqlDb,
  qb: Knex,
  tenantId: string,
  f: EvidenceFilter,
  page: PageRequest,
): Promise<Page<EvidenceSnapshot>> {
  // Records awaiting their file have no version row: the inner join leaves them out unless they are asked for.
  const awaiting = f.status === AWAITING_UPLOAD;
  const q = qb({ e: 'evidence' })
    [awaiting ? 'leftJoin' : 'join']({ v: 'evidence_versions' }, (j) =>
      j.on('v.evidence_id', 'e.id').andOn('v.version', 'e.version'),
    )
    .select(
      'e.id',
      'e.tenant_id',
      'e.learner_id',
      'e.enrolment_id',
      'e.module_id',
      'e.evidence_type',
      'e.created_at',
      'e.updated_at',
      'e.deleted_at',
      'e.description',
      'e.awaiting_filename',
      { e_created_by: 'e.created_by' },
      'v.version',
      'v.filename',
      'v.content_type',
      'v.size',
      'v.sha256',
      'v.storage_key',
      'v.uploaded_by',
      { v_created_at: 'v.created_at' },
      'v.status',
      'v.reviewed_at',
      'v.reviewed_by',
      'v.feedback',
    )
    .where('e.tenant_id', tenantId)
    .whereNull('e.deleted_at');
  if (f.learnerId) q.where('e.learner_id', f.learnerId);
  if (f.moduleId) q.where('e.module_id', f.moduleId);
  if (f.enrolmentId) q.where('e.enrolment_id', f.enrolmentId);
  if (f.evidenceType) q.where('e.evidence_type', f.evidenceType);
  if (awaiting) q.where('e.version', 0);
  else if (f.status) q.where('v.status', f.status);
  if (f.from) q.where('e.created_at', '>=', f.from);
  if (f.to) q.where('e.created_at', '<=', f.to);
  return pageQuery(db, q, page, rowToEvidence, 'e.id');
}
