import type { PortalRepos } from '@fundi/domain/portal';
import type { CoreDeps } from '../common/ports.js';
import type { RetentionTask } from '../retention/retention-policy.js';
import type { PortalDeps } from './portal-deps.js';
import { PortalSessions } from './portal-sessions.js';
import { PortalSignIns } from './portal-sign-in.js';

export type PortalPorts = PortalDeps;

/** The learner portal's sign-in and sessions (docs/dashboard.md, "Learner portal"). */
export function portalUseCases(p: PortalPorts) {
  return { signIns: new PortalSignIns(p), sessions: new PortalSessions(p) };
}

export type PortalUseCases = ReturnType<typeof portalUseCases>;

/** Portal sign-ins and sessions once expired: pruned under the dashboard sessions' policy (at their end). */
export function portalRetention(d: Pick<CoreDeps<PortalRepos>, 'repos'>): RetentionTask[] {
  return [
    {
      kind: 'dashboardSessions',
      step: 'portalSignIns',
      prune: (before, limit) => d.repos.portalSignIns.deleteExpired(before.toISOString(), limit),
    },
    {
      kind: 'dashboardSessions',
      step: 'portalSessions',
      prune: (before, limit) => d.repos.portalSessions.deleteExpired(before.toISOString(), limit),
    },
  ];
}
