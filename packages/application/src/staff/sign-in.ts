import { randomBytes } from 'node:crypto';
import { DomainError } from '@fundi/domain';
import { recordChange } from '../common/record-change.js';
import { sha256 } from './set-password-token.js';
import type { StaffDeps } from './staff-deps.js';
import { verifyPassword } from './password.js';
import { staffActor } from './staff-actor.js';

/** A session ends this long after sign-in, whatever the activity. */
export const SESSION_HOURS = 12;

export interface OpenedSession {
  token: string;
  expiresAt: string;
}

const refused = () =>
  new DomainError('unauthorized', 'sign_in_failed', 'The organisation, email or password is not correct');

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
