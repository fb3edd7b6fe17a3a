import type { LogbookUseCases } from '@fundi/application/logbooks';

declare module '../dashboard/dashboard-deps.js' {
  /** The logbooks use cases the dashboard's pages call (docs/architecture.md, "A capability's anatomy"). */
  interface DashboardDeps {
    logbooks: Pick<LogbookUseCases, 'progress'>;
  }
}
