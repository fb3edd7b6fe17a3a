import { learnerStorage } from '@fundi/adapters/learners';
import { SCRUB_AFTER_ERASURE, learnerExport, learnerImport, learnerUseCases } from '@fundi/application/learners';
import {
  learnerEvents,
  learnerRoutes,
  learnerEditPages,
  learnerBulkPages,
  learnerPages,
  learnerTiles,
} from '@fundi/http/learners';
import { capability } from './capability.js';

export const learners = capability({
  name: 'learners',
  storage: learnerStorage,
  declares: {
    scopes: {
      'learners:read': ['admin', 'manager', 'assessor', 'moderator', 'facilitator', 'viewer', 'integration'],
      'learners:write': ['admin', 'manager', 'facilitator', 'integration'],
      'learners:delete': ['admin', 'manager'],
    },
    ids: ['lrn'],
    events: learnerEvents,
    offers: { exportTypes: [learnerExport], importKinds: [learnerImport] },
  },
  useCases: learnerUseCases,
  routes: learnerRoutes,
  pageDeps: (u) => ({ learners: u }),
  dashboard: {
    nav: [{ href: '/dashboard/learners', label: 'Learners', order: 10, scope: 'learners:read' }],
    pages: [learnerEditPages, learnerBulkPages, learnerPages],
    sections: { overviewTiles: [learnerTiles] },
  },
  jobs: (u) => [{ ...SCRUB_AFTER_ERASURE, parse: () => ({}), run: () => u.scrubAfterErasure.execute() }],
});
