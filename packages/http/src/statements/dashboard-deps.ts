import type { StatementUseCases } from '@fundi/application/statements';

declare module '../dashboard/dashboard-deps.js' {
  /** The statements use cases the dashboard's pages call (docs/architecture.md, "A capability's anatomy"). */
  interface DashboardDeps {
    /** Statements of Results on the learner's enrolments; without it they are not served. */
    statements?: StatementUseCases;
  }
}
