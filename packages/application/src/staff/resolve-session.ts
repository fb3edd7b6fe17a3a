import type { TenantSnapshot } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import { sha256 } from './set-password-token.js';
import type { StaffDeps } from './staff-deps.js';
import { staffView, type StaffView } from './staff-view.js';
import { staffActor } from './staff-actor.js';

/** A signed-in staff user's session: who acts, their tenant, the form token and when it ends. */
export interface SessionContext {
  actor: Actor;
  user: StaffView;
  tenant: TenantSnapshot;
  csrfToken: string;
  expiresAt: string;
}

/** The session a cookie names, or null when unknown, expired, or its user is gone or disabled. */
export class ResolveSession {
  constructor(private readonly deps: StaffDeps) {}

  async execute(token: string): Promise<SessionContext | null> {
    const s = await this.deps.repos.dashboardSessions.find(sha256(token));
    if (!s || s.expiresAt <= this.deps.clock.now().toISOString()) return null;
    const [user, tenant] = await Promise.all([
      this.deps.repos.staffCredentials.findById(s.tenantId, s.userId),
      this.deps.repos.tenants.findById(s.tenantId),
    ]);
    if (!user || !tenant || user.status !== 'active') return null;
    return {
      actor: staffActor(user, this.deps.access),
      user: staffView(user),
      tenant,
      csrfToken: s.csrfToken,
      expiresAt: s.expiresAt,
    };
  }
}
