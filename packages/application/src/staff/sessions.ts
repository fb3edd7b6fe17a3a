import { randomBytes } from 'node:crypto';
import { DomainError, type AccessPolicy, type TenantSnapshot } from '@fundi/domain';
import type { StaffCredentialSnapshot } from '@fundi/domain/staff';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { sha256 } from './set-password-token.js';
import type { StaffDeps } from './staff-deps.js';
import { staffView, type StaffView } from './staff-view.js';
import { verifyPassword } from './password.js';

/** A session ends this long after sign-in, whatever the activity. */
export const SESSION_HOURS = 12;

export interface OpenedSession {
  token: string;
  expiresAt: string;
}

export interface SessionContext {
  actor: Actor;
  user: StaffView;
  tenant: TenantSnapshot;
  csrfToken: string;
  expiresAt: string;
}

const refused = () =>
  new DomainError('unauthorized', 'sign_in_failed', 'The organisation, email or password is not correct');

/** A staff user acts with every scope of their role, exactly as an API key of that role with no narrowing. */
export const staffActor = (u: StaffCredentialSnapshot, access: AccessPolicy): Actor => ({
  tenantId: u.tenantId,
  id: u.id,
  role: u.role,
  scopes: access.of(u.role),
  name: u.name,
});

/** Email + password to a new session. Every failure is the same answer, in about the same time. */
export class SignIn {
  constructor(private readonly deps: StaffDeps) {}

  async execute(input: { tenant: string; email: string; password: string }): Promise<OpenedSession> {
    const tenant = await this.deps.repos.tenants.findBySlug(input.tenant.trim().toLowerCase());
    const user = tenant ? await this.deps.repos.staffCredentials.findByEmail(tenant.id, input.email.trim()) : null;
    const ok = await verifyPassword(input.password, user?.passwordHash ?? null);
    if (!ok || !user || user.status !== 'active') throw refused();
    const now = this.deps.clock.now();
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + SESSION_HOURS * 3_600_000).toISOString();
    await this.deps.uow.run(async (tx) => {
      await tx.dashboardSessions.insert({
        tokenHash: sha256(token),
        tenantId: user.tenantId,
        userId: user.id,
        csrfToken: randomBytes(24).toString('base64url'),
        createdAt: now.toISOString(),
        expiresAt,
      });
      await recordChange(tx, staffActor(user, this.deps.access), now, {
        action: 'staff_user.signed_in',
        resourceType: 'staff_user',
        resourceId: user.id,
      });
    });
    return { token, expiresAt };
  }
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

/** Ends the session (idempotent); expired sessions are swept at the same time. */
export class SignOut {
  constructor(private readonly deps: StaffDeps) {}

  async execute(token: string): Promise<void> {
    await this.deps.repos.dashboardSessions.delete(sha256(token));
    await this.deps.repos.dashboardSessions.deleteExpired(this.deps.clock.now().toISOString());
  }
}
