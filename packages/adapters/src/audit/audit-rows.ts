import type { ChainRow, PersonalValues } from '@fundi/domain/audit';
import type { Binding } from '../db/sql-db.js';

export type AuditRow = Record<string, string | number | null>;

/** The columns of `audit_log`, in the order `auditRowValues` binds them. */
export const AUDIT_COLUMNS =
  'id, tenant_id, seq, prev_hash, hash, actor, action, resource_type, resource_id, learner_id, at, details, changes, personal_fields, personal_digest, via, ip';

const text = (v: string | number | null | undefined) => (v === null || v === undefined ? null : String(v));

export function chainRowOf(r: AuditRow): ChainRow {
  return {
    id: String(r.id),
    tenantId: String(r.tenant_id),
    seq: Number(r.seq),
    prevHash: String(r.prev_hash),
    hash: String(r.hash),
    actor: String(r.actor),
    action: String(r.action),
    resourceType: String(r.resource_type),
    resourceId: String(r.resource_id),
    learnerId: text(r.learner_id),
    at: String(r.at),
    details: String(r.details),
    changes: text(r.changes),
    personalFields: text(r.personal_fields),
    personalDigest: text(r.personal_digest),
    via: text(r.via),
    ip: text(r.ip),
  };
}

export const auditRowValues = (r: ChainRow): Binding[] => [
  r.id,
  r.tenantId,
  r.seq,
  r.prevHash,
  r.hash,
  r.actor,
  r.action,
  r.resourceType,
  r.resourceId,
  r.learnerId,
  r.at,
  r.details,
  r.changes,
  r.personalFields,
  r.personalDigest,
  r.via,
  r.ip,
];

export const personalOf = (r: AuditRow): PersonalValues => ({
  entryId: String(r.entry_id),
  tenantId: String(r.tenant_id),
  learnerId: text(r.learner_id),
  salt: String(r.salt),
  data: String(r.data),
});
