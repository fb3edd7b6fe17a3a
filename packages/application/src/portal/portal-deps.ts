import type { PlatformRepos, Scope, TenantRepos } from '@fundi/domain';
import type { LearnerRepos, LearnerSnapshot } from '@fundi/domain/learners';
import type { PortalRepos } from '@fundi/domain/portal';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';

export type PortalDeps = CoreDeps<PortalRepos & LearnerRepos & TenantRepos & PlatformRepos>;

/** A sign-in link or code works this long, once. */
export const SIGN_IN_MINUTES = 15;
/** A portal session ends this long after sign-in, whatever the activity. */
export const PORTAL_SESSION_HOURS = 12;

/**
 * What a signed-in learner may ask of the use cases: reads of their own records and their own evidence uploads.
 * Every portal page passes the session's learner id itself, so these scopes never reach another learner's records.
 */
const LEARNER_SCOPES: readonly Scope[] = [
  'learners:read',
  'programmes:read',
  'enrolments:read',
  'assessments:read',
  'evidence:read',
  'evidence:write',
  'logbooks:read',
  'logbooks:write',
];

/**
 * The learner as an actor: changes they make are audited under their own id (`lrn_...`), the role is the
 * narrowest there is, the scopes are `LEARNER_SCOPES`, and the origin is the portal.
 */
export const learnerActor = (l: LearnerSnapshot): Actor => ({
  tenantId: l.tenantId,
  id: l.id,
  role: 'viewer',
  scopes: LEARNER_SCOPES,
  name: `${l.firstName} ${l.lastName}`,
  via: 'portal',
});
