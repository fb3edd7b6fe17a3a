import type { ExportUseCases } from '@fundi/application/exports';

declare module '../dashboard/dashboard-deps.js' {
  /** The exports use cases the dashboard's pages call (docs/architecture.md, "A capability's anatomy"). */
  interface DashboardDeps {
    exports: ExportUseCases;
  }
}
