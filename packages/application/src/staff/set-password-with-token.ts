import { DomainError } from '@fundi/domain';
import { recordChange } from '../common/record-change.js';
import { checkNewPassword, hashPassword } from './password.js';
import { sha256 } from './set-password-token.js';
import type { StaffDeps } from './staff-deps.js';

/** Sets a password through a one-time link; the link then stops working and earlier sessions end. */
export class SetPasswordWithToken {
  constructor(private readonly deps: StaffDeps) {}

  async execute(token: string, password: unknown): Promise<{ tenantId: string; email: string }> {
    const hash = await hashPassword(checkNewPassword(password));
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const u = await tx.staffCredentials.findBySetPasswordToken(sha256(token));
      if (!u || u.setPasswordExpiresAt! <= now.toISOString()) {
        throw DomainError.forbidden('The link is not valid or has expired: ask an administrator for a new one');
      }
      await tx.staffCredentials.update({
        ...u,
        passwordHash: hash,
        setPasswordTokenHash: null,
        setPasswordExpiresAt: null,
        updatedAt: now.toISOString(),
      });
      await tx.dashboardSessions.deleteForUser(u.tenantId, u.id);
      await recordChange(tx, { tenantId: u.tenantId, id: u.id, role: u.role, scopes: [] }, now, {
        action: 'staff_user.password_set',
        resourceType: 'staff_user',
        resourceId: u.id,
      });
      return { tenantId: u.tenantId, email: u.email };
    });
  }
}
