import { portalStorage } from '@fundi/adapters';
import { portalRetention, portalUseCases } from '@fundi/application';
import { capability } from './capability.js';

/**
 * The learner portal's sign-in and sessions (docs/dashboard.md, "Learner portal"); its pages are served beside the
 * dashboard's (`portalOf` in compose.ts).
 */
export const portal = capability({
  name: 'portal',
  storage: portalStorage,
  useCases: portalUseCases,
  retention: portalRetention,
});
