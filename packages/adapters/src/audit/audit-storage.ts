import type { AuditRepos } from '@fundi/domain/audit';
import { auditMemory } from '@fundi/memory/audit';
import type { CapabilityStorage } from '../storage/capability-storage.js';
import { SqlAuditTrail } from './sql-audit-trail.js';

/**
 * The audit trail's reading side and its chain (docs/api.md, "Audit trail"). The entries, their chain and their
 * personal values are written by the platform's `SqlAuditLog` into the platform's tables
 * (migration `platform/202611271247-audit-chain`); this part only reads them.
 */
export const auditStorage: CapabilityStorage<AuditRepos> = {
  migrations: [],
  sql: (db, qb) => ({ auditTrail: new SqlAuditTrail(db, qb) }),
  memory: auditMemory,
};
