import type { Page, PageRequest } from '../common/paging.js';
import type { AuditEntry, FieldChange } from './audit.js';
import type { ChainRow, PersonalValues } from './audit-chain.js';

/** The filters of `GET /audit` (docs/api.md, "Audit trail"); `from` and `to` are inclusive instants. */
export interface AuditFilter {
  entityType?: string;
  entityId?: string;
  /** Entries on any of these (a page's own entities: an enrolment, its assessments, evidence and statements). */
  entityIds?: readonly string[];
  learnerId?: string;
  actorId?: string;
  action?: string;
  from?: string;
  to?: string;
}

/** An entry as read: with the names of its personal fields and their values while they are kept. */
export interface AuditRecord extends AuditEntry {
  personalFields: string[];
  /** Null when the entry changed no personal field, or its learner was erased since. */
  personalValues: Record<string, FieldChange> | null;
}

/** Port: reading the audit trail and walking its chain. */
export interface AuditTrail {
  /** Newest first; Form A's cursor is the last id seen. */
  list(tenantId: string, filter: AuditFilter, page: PageRequest): Promise<Page<AuditRecord>>;
  /** Up to `limit` rows after `afterSeq` in `seq` order, with the personal values kept for them. */
  chain(tenantId: string, afterSeq: number, limit: number): Promise<{ rows: ChainRow[]; personal: PersonalValues[] }>;
  /** The tenant's last seq and hash, as the writer keeps them; null before the first entry. */
  head(tenantId: string): Promise<{ seq: number; hash: string } | null>;
}

export type AuditRepos = { auditTrail: AuditTrail };
