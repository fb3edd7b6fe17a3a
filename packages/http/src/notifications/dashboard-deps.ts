import type { NotificationUseCases } from '@fundi/application/notifications';

declare module '../dashboard/dashboard-deps.js' {
  /** The notifications use cases the dashboard's pages call (docs/architecture.md, "A capability's anatomy"). */
  interface DashboardDeps {
    notifications: NotificationUseCases;
  }
}
