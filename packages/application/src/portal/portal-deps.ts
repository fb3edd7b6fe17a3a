import type { PlatformRepos, Scope, TenantRepos } from '@fundi/domain';
import type { LearnerRepos, LearnerSnapshot } from '@fundi/domain/learners';
import type { PortalRepos } from '@fundi/domain/portal';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';

export type PortalDeps = CoreDeps<PortalRepos & LearnerRepos & TenantRepos & PlatformRepos> & {
  /** What a signed-in learner may ask of the use cases: every capability's offered `learnerScopes`. */
  learnerScopes: readonly Scope[];
};

/** A sign-in link or code works this long, once. */
export const SIGN_IN_MINUTES = 15;
/** A portal session ends this long after sign-in, whatever the activity. */
export const PORTAL_SESSION_HOURS = 12;

/**
 * The learner as an actor: changes they make are audited under their own id (`lrn_...`), the role is the
 * narrowest there is, the scopes are those the capabilities offer a learner (`learnerScopes`), and the origin is the
 * portal.
 */
export const learnerActor = (l: LearnerSnapshot, scopes: readonly Scope[]): Actor => ({
  tenantId: l.tenantId,
  id: l.id,
  role: 'viewer',
  scopes,
  name: `${l.firstName} ${l.lastName}`,
  via: 'portal',
});
