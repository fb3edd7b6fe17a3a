import { TokenSigner } from '@fundi/adapters';
import { logbookStorage } from '@fundi/adapters/logbooks';
import type { Ports } from '@fundi/application';
import { erasureJob, erasureJobType, onLearnerErased } from '@fundi/application/learners';
import { logbookExport, logbookImport, logbookUseCases, type LogbookUseCases } from '@fundi/application/logbooks';
import type { PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { LogbookRepos } from '@fundi/domain/logbooks';
import type { TrainingRepos } from '@fundi/domain/training';
import { learnerHours, logbookEvents, logbookRoutes } from '@fundi/http/logbooks';
import { capability } from './capability.js';

/** Erasure of a learner: their entries' personal text goes, their hours stay (docs/api.md, "Logbooks"). */
export const ERASE_LOGBOOK_TEXT = erasureJobType('logbooks.erase_learner');

/**
 * Workplace logbooks: entries for workplace modules, the supervisor's sign-off by signed link (its page is the
 * learner portal's, `portalOf` in compose.ts), hours per module (docs/api.md, "Logbooks").
 */
export function logbooks(masterKey: Buffer) {
  const signer = new TokenSigner(masterKey);
  return capability({
    name: 'logbooks',
    storage: logbookStorage,
    declares: {
      scopes: {
        'logbooks:read': ['admin', 'manager', 'assessor', 'facilitator', 'viewer', 'integration'],
        'logbooks:write': ['admin', 'manager', 'assessor', 'facilitator', 'integration'],
        // A DELETE needs a scope of its own (docs/api.md): integrations never delete.
        'logbooks:delete': ['admin', 'manager', 'assessor', 'facilitator'],
      },
      ids: ['lbe', 'lbs'],
      events: logbookEvents,
      // The logbook entries are a file of the full export only (docs/api.md, "Logbooks").
      offers: { exportTypes: [logbookExport], importKinds: [logbookImport] },
    },
    useCases: (p: Ports<LogbookRepos & LearnerRepos & TrainingRepos & PlatformRepos>): LogbookUseCases =>
      logbookUseCases({ ...p, signer }),
    routes: logbookRoutes,
    pageDeps: (u) => ({ logbooks: u }),
    dashboard: { sections: { learnerRecord: [learnerHours] } },
    reactions: () => [onLearnerErased(ERASE_LOGBOOK_TEXT)],
    jobs: (u) => [erasureJob(ERASE_LOGBOOK_TEXT, (p) => u.eraseLearner(p.tenantId, p.learnerId))],
  });
}
