import type { LearnerUseCases } from '@fundi/application/learners';

declare module '../dashboard/dashboard-deps.js' {
  /** The learners use cases the dashboard's pages call (docs/architecture.md, "A capability's anatomy"). */
  interface DashboardDeps {
    /** Learners: their list, records, registration, edits and erasure. */
    learners: Pick<
      LearnerUseCases,
      'listLearners' | 'getLearner' | 'registerLearner' | 'updateLearner' | 'eraseLearner' | 'learnerNames'
    >;
  }
}
