import { learnerStorage } from '@fundi/adapters';
import { SCRUB_AFTER_ERASURE, learnerUseCases } from '@fundi/application';
import { learnerRoutes } from '@fundi/http';
import { capability } from './capability.js';

export const learners = capability({
  name: 'learners',
  storage: learnerStorage,
  useCases: learnerUseCases,
  routes: learnerRoutes,
  jobs: (u) => [{ ...SCRUB_AFTER_ERASURE, parse: () => ({}), run: () => u.scrubAfterErasure.execute() }],
});
