import type { EvidenceUseCases } from '@fundi/application/evidence';

declare module '../dashboard/dashboard-deps.js' {
  /** The evidence use cases the dashboard's pages call (docs/architecture.md, "A capability's anatomy"). */
  interface DashboardDeps {
    evidence: EvidenceUseCases;
  }
}
