import type { TenantSnapshot } from '@fundi/domain';
import type { LearnerSnapshot } from '@fundi/domain/learners';
import type { Actor } from '../common/actor.js';
import { learnerActor, type PortalDeps } from './portal-deps.js';
import { portalTokenHash } from './portal-sign-in.js';

export interface PortalSessionContext {
  learner: LearnerSnapshot;
  tenant: TenantSnapshot;
  /** The learner as the actor of what they do (see `learnerActor`). */
  actor: Actor;
  csrfToken: string;
  expiresAt: string;
}

/** Portal sessions: the one a cookie names (null when unknown, expired, or the learner is gone), and sign-out. */
export class PortalSessions {
  constructor(private readonly d: PortalDeps) {}

  async resolve(token: string): Promise<PortalSessionContext | null> {
    const s = await this.d.repos.portalSessions.find(portalTokenHash(token));
    if (!s || s.expiresAt <= this.d.clock.now().toISOString()) return null;
    const [learner, tenant] = await Promise.all([
      this.d.repos.learners.findById(s.tenantId, s.learnerId),
      this.d.repos.tenants.findById(s.tenantId),
    ]);
    if (!learner || !tenant) return null;
    return {
      learner,
      tenant,
      actor: learnerActor(learner, this.d.learnerScopes),
      csrfToken: s.csrfToken,
      expiresAt: s.expiresAt,
    };
  }

  /** Ends the session (idempotent); expired sessions and sign-ins are swept at the same time. */
  async signOut(token: string): Promise<void> {
    const now = this.d.clock.now().toISOString();
    await this.d.repos.portalSessions.delete(portalTokenHash(token));
    await this.d.repos.portalSessions.deleteExpired(now);
    await this.d.repos.portalSignIns.deleteExpired(now);
  }
}
