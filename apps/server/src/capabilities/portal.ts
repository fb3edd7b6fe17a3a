import { portalStorage } from '@fundi/adapters/portal';
import { portalRetention, portalUseCases } from '@fundi/application/portal';
import { capability } from './capability.js';

/**
 * The learner portal's sign-in and sessions (docs/dashboard.md, "Learner portal"); its pages are served beside the
 * dashboard's (`portalOf` in compose.ts).
 */
export const portal = capability({
  name: 'portal',
  storage: portalStorage,
  // The scopes its own pages need (the learner's programmes and results, their details, the logbook); the
  // capabilities whose sections it shows offer theirs.
  declares: {
    offers: {
      learnerScopes: [
        'learners:read',
        'programmes:read',
        'enrolments:read',
        'assessments:read',
        'logbooks:read',
        'logbooks:write',
      ],
    },
  },
  useCases: portalUseCases,
  pageDeps: (u) => ({ portal: u }),
  retention: portalRetention,
});
