import type { AccessPolicy } from '@fundi/domain';
import type { PortalRepos } from '@fundi/domain/portal';
import type { OfferedHooks } from '../common/hooks.js';
import type { CoreDeps } from '../common/ports.js';
import type { RetentionTask } from '../retention/retention-policy.js';
import type { PortalDeps } from './portal-deps.js';
import { PortalSessions } from './portal-sessions.js';
import { PortalSignIns } from './portal-sign-in.js';
import { learnerScopesOf } from './learner-scopes.js';

export type PortalPorts = Omit<PortalDeps, 'learnerScopes'> & {
  access: AccessPolicy;
  hooks: Partial<Pick<OfferedHooks, 'learnerScopes'>>;
};

/**
 * The learner portal's sign-in and sessions (docs/dashboard.md, "Learner portal"); a session acts with the scopes
 * the capabilities offer a learner.
 */
export function portalUseCases(p: PortalPorts) {
  const d: PortalDeps = { ...p, learnerScopes: learnerScopesOf(p.hooks.learnerScopes, p.access) };
  return { signIns: new PortalSignIns(d), sessions: new PortalSessions(d) };
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
