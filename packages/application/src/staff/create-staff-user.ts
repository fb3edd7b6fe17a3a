import { randomBytes } from 'node:crypto';
import { newId } from '@fundi/domain';
import { StaffCredential } from '@fundi/domain/staff';
import { operator, type Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { tenantBySlug } from '../tenants/tenant-lookup.js';
import { checkNewPassword, hashPassword } from './password.js';
import { SET_PASSWORD_HOURS, sha256 } from './set-password-token.js';
import type { StaffDeps } from './staff-deps.js';
import { staffView, type StaffView } from './staff-view.js';

/**
 * Creates a staff user of a tenant (the operator's CLI, or an administrator in the dashboard). With a password the user can sign in at once; without
 * one the answer carries a one-time set-password token (valid for `SET_PASSWORD_HOURS`), shown only here.
 */
export class CreateStaffUser {
  constructor(private readonly deps: StaffDeps) {}

  async execute(
    tenantSlug: string,
    input: { email: unknown; name: unknown; role: unknown; password?: unknown },
    actor?: Actor,
  ): Promise<{ user: StaffView; setPasswordToken: string | null }> {
    const tenant = await tenantBySlug(this.deps.repos, tenantSlug);
    const now = this.deps.clock.now();
    let user = StaffCredential.create(input, { id: newId('usr'), tenantId: tenant.id, now });
    let token: string | null = null;
    if (input.password !== undefined)
      user = { ...user, passwordHash: await hashPassword(checkNewPassword(input.password)) };
    else {
      token = `${user.id}.${randomBytes(24).toString('base64url')}`;
      const expires = new Date(now.getTime() + SET_PASSWORD_HOURS * 3_600_000).toISOString();
      user = { ...user, setPasswordTokenHash: sha256(token), setPasswordExpiresAt: expires };
    }
    await this.deps.uow.run(async (tx) => {
      await tx.staffCredentials.insert(user);
      await recordChange(tx, actor ?? operator(tenant.id), now, {
        action: 'staff_user.created',
        resourceType: 'staff_user',
        resourceId: user.id,
        details: { role: user.role },
      });
    });
    return { user: staffView(user), setPasswordToken: token };
  }
}
