import type { ImportUseCases } from '@fundi/application/imports';

declare module '../dashboard/dashboard-deps.js' {
  /** The imports use cases the dashboard's pages call (docs/architecture.md, "A capability's anatomy"). */
  interface DashboardDeps {
    imports: ImportUseCases;
  }
}
