import type { HrSyncUseCases } from '@fundi/application/hr-sync';

declare module '../dashboard/dashboard-deps.js' {
  /** The HR sync use cases the dashboard's pages call (docs/architecture.md, "A capability's anatomy"). */
  interface DashboardDeps {
    hrSync: HrSyncUseCases;
  }
}
