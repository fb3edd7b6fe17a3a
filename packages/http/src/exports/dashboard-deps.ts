import type { ExportTypeDef, ExportUseCases } from '@fundi/application/exports';

declare module '../dashboard/dashboard-deps.js' {
  /** The exports use cases the dashboard's pages call (docs/architecture.md, "A capability's anatomy"). */
  interface DashboardDeps {
    exports: ExportUseCases;
    /** Every offered export type, in the capability list's order (their labels). */
    exportTypes: readonly ExportTypeDef[];
  }
}
