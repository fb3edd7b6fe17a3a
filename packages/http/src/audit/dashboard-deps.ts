import type { AuditTrailReader } from '@fundi/application/audit';

declare module '../dashboard/dashboard-deps.js' {
  /** The audit use cases the dashboard's pages call (docs/architecture.md, "A capability's anatomy"). */
  interface DashboardDeps {
    /** The audit trail (the audit page and the history on records); without it they are not served. */
    audit?: AuditTrailReader;
  }
}
