import type { TrainingUseCases } from '@fundi/application/training';

declare module '../dashboard/dashboard-deps.js' {
  /** The training use cases the dashboard's pages call (docs/architecture.md, "A capability's anatomy"). */
  interface DashboardDeps {
    training: TrainingUseCases;
  }
}
