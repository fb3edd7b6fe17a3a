import type { TenantRepos } from '@fundi/domain';
import type { AuditRepos } from '@fundi/domain/audit';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { StaffRepos } from '@fundi/domain/staff';
import { DescribeActors } from '../common/describe-actors.js';
import { dayEnd, dayStart, pages } from '../exports/export-reading.js';
import { csvExportType, type Column, type ResolvedFilters, type SystemActors } from '../exports/export-type.js';
import { auditView, type AuditView } from './audit-view.js';

/** The audit trail as `GET /audit` shows it (changes and details as JSON text). */
export const AUDIT_COLUMNS: Record<string, Column<AuditView>> = {
  id: (r) => r.id,
  at: (r) => r.at,
  actor_type: (r) => r.actor.type,
  actor_id: (r) => r.actor.id,
  actor_name: (r) => r.actor.name,
  via: (r) => r.origin.via,
  ip: (r) => r.origin.ip,
  action: (r) => r.action,
  entity_type: (r) => r.entityType,
  entity_id: (r) => r.entityId,
  learner_id: (r) => r.learnerId,
  changes: (r) => JSON.stringify(r.changes),
  details: (r) => JSON.stringify(r.details),
};

type AuditReading = AuditRepos &
  Pick<TenantRepos, 'apiKeys'> &
  Pick<StaffRepos, 'staffCredentials'> &
  Pick<LearnerRepos, 'learners'>;

/** The audit trail by time (`from`/`to`), newest first, each entry as `GET /audit` shows it. */
export async function* auditRows(
  r: AuditReading,
  tenantId: string,
  f: ResolvedFilters,
  _fields: readonly string[],
  system: SystemActors,
): AsyncGenerator<AuditView[]> {
  const filter = { from: dayStart(f.from), to: dayEnd(f.to) };
  const actors = new DescribeActors({ repos: r, system });
  for await (const batch of pages((p) => r.auditTrail.list(tenantId, filter, p))) {
    const refs = await actors.describe(
      tenantId,
      batch.map((e) => e.actor),
    );
    yield batch.map((e) => auditView(e, refs, system));
  }
}

/** The audit trail CSV, for those who may read it (docs/api.md, "Audit trail"). */
export const auditExport = csvExportType({
  name: 'audit',
  label: 'Audit trail (CSV)',
  scope: 'audit:read',
  columns: AUDIT_COLUMNS,
  rows: auditRows,
});
